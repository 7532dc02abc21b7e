import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, filesOf, folderOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A session of the watching engine on `home`: until the folder is watched and caught up (and `until` holds). */
async function session(
  sb: Awaited<ReturnType<typeof startSandbox>>,
  home: string,
  folderId: number,
  until: (files: Awaited<ReturnType<typeof filesOf>>) => boolean = () => true,
) {
  // As by default: a folder watched through events is never walked again on a timer.
  const host = watchEngine(sb, home, { eventRescanMs: Number.POSITIVE_INFINITY });
  const run = running(host);
  const since = Date.now();
  await waitFor(
    'watched, caught up',
    () => folderOf(host.api, folderId),
    (f) => f.status === 'watching' && f.lastScanAt !== null && Date.parse(f.lastScanAt) >= since,
  );
  const files = await waitFor('what the session waits for', () => filesOf(host.api, folderId), until, 10_000);
  await run.stop();
  await host.close();
  return files;
}

describe('a restart after changes made while no Dubdesk ran', () => {
  it('finds a file rewritten with its old mtime set back (tar, unzip, touch -d), as a walk would', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    const dir = tempDir('dubdesk-watch-');
    const STAMP = '2024-03-01 12:00:00';
    // Unpacked from an archive: mtimes set by the tool, to the second.
    const names = ['inplace.mp3', 'replaced.mp3', 'same.mp3'];
    for (const name of names) fs.copyFileSync(audioMp3(1, `v1-${name}`), join(dir, name));
    execFileSync('touch', ['-d', STAMP, ...names.map((n) => join(dir, n))]);
    const first = watchEngine(sb, home);
    const folder = await addFolder(first.api, dir);
    await first.close();
    const taken = (files: Awaited<ReturnType<typeof filesOf>>) =>
      files.length === 3 && files.every((f) => f.status === 'queued' || f.status === 'done');
    // One session takes them; the next one leaves a snapshot of the folder as it is.
    await session(sb, home, folder.id, taken);
    await session(sb, home, folder.id);

    // The next version unpacked over it while Dubdesk was closed: other content, other size, same mtime.
    fs.writeFileSync(join(dir, 'inplace.mp3'), fs.readFileSync(audioMp3(2, 'v2-inplace.mp3')));
    fs.copyFileSync(audioMp3(2, 'v2-replaced.mp3'), join(dir, 'replacement'));
    execFileSync('touch', ['-d', STAMP, join(dir, 'inplace.mp3'), join(dir, 'replacement')]);
    fs.renameSync(join(dir, 'replacement'), join(dir, 'replaced.mp3'));

    const files = await session(sb, home, folder.id, (f) => f.length === 5);
    const versions = (name: string) =>
      files
        .filter((f) => f.path === join(dir, name))
        .map((f) => f.version)
        .sort();
    expect(versions('inplace.mp3')).toEqual([1, 2]);
    expect(versions('replaced.mp3')).toEqual([1, 2]);
    expect(versions('same.mp3')).toEqual([1]);
  });
});

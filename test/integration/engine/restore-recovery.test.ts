/**
 * `dubdesk restore-db` puts back a backup older than the dubs made since: what the restored database does
 * not know (the service's dubs, the results beside the sources, the damaged file's readable rows) is
 * found before anything is sent, so files added or watched again are never dubbed and paid for again.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import {
  dubbedThenDamaged,
  dubbedThenRestored,
  historyPage,
  junk,
  madeOf,
  truncated,
  type Damage,
} from '../../helpers/restored-home';
import { videoMp4 } from '../../helpers/media';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function sandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, balance: 10_000 });
  cleanup.push(() => sb.stop());
  return sb;
}

/** Three files of their own, 1 s each, named `<prefix>-N.mp4`. */
function threeFiles(prefix: string): string[] {
  const dir = tempDir();
  return [1, 2, 3].map((n) => {
    const path = join(dir, `${prefix}-${n}.mp4`);
    copyFileSync(videoMp4(1, `restore-src-${n}.mp4`), path);
    return path;
  });
}

describe.each<[ApiGeneration, string, Damage]>([
  ['v2', 'overwritten', junk],
  ['v2', 'truncated', truncated],
  ['v1', 'overwritten', junk],
  ['legacy', 'overwritten', junk],
])('%s: a database %s and restored from a backup older than its dubs', (api, how, damage) => {
  it('adding the files again fetches the dubs made before: no dub made or paid twice, no (2)', async () => {
    const sb = await sandbox();
    const files = threeFiles(`restored-${api}-${how}`);
    const names = files.map((f) => f.split('/').pop() ?? '');
    const outDir = tempDir();
    const { home } = await dubbedThenRestored(sb, files, damage, { api, outDir });
    const first = madeOf(sb, names);
    expect(first.dubs).toHaveLength(3);

    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    await host.api.add({ inputs: files, to: ['es'], api, outDir });
    expect(await host.run(quickRun(2))).toBe('done');

    const after = madeOf(sb, names);
    expect(after.dubs.map((d) => d.id).sort()).toEqual(first.dubs.map((d) => d.id).sort());
    expect(after.charges).toHaveLength(3);
    const written = readdirSync(outDir);
    expect(written.filter((f) => / \(\d+\)\./.test(f))).toEqual([]);
    const jobs = (await host.api.listJobs({ offset: 0, limit: 50 })).jobs;
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
  });
});

describe('a v2 database damaged where its jobs can still be read, restored from a backup older than its dubs', () => {
  it('its jobs are put back: the files added again are already dubbed, nothing is sent', async () => {
    const sb = await sandbox();
    const files = threeFiles('readable-rows');
    const names = files.map((f) => f.split('/').pop() ?? '');
    const outDir = tempDir();
    const { home, restored } = await dubbedThenRestored(sb, files, historyPage, { outDir });
    expect(restored.salvaged.jobs).toBe(3);
    const made = madeOf(sb, names).dubs.length;

    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    const again = await host.api.add({ inputs: files, to: ['es'], outDir });
    expect(again.added).toEqual([]);
    expect(again.alreadyDone.map((d) => d.outputs.length)).toEqual([2, 2, 2]);
    expect(await host.run(quickRun(2))).toBe('done');
    expect(madeOf(sb, names).dubs).toHaveLength(made);
    expect(readdirSync(outDir).filter((f) => / \(\d+\)\./.test(f))).toEqual([]);
  });
});

describe('restore-db', () => {
  it('says what it read from the damaged file, and what it could not', async () => {
    const sb = await sandbox();
    const { restored } = await dubbedThenRestored(sb, threeFiles('said'), junk, { outDir: tempDir() });
    expect(restored.salvaged).toEqual({
      jobs: 0,
      unreadable: expect.stringMatching(/not a database|could not/),
    });
  });

  it('`dubdesk restore-db` says what it put back, what it could not read, and the dubs the service made since', async () => {
    const sb = await sandbox();
    const files = threeFiles('said-cli');
    const home = await dubbedThenDamaged(sb, files, junk, { outDir: tempDir() });
    const r = await runCli(['restore-db'], envFor(sb, home));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Restored the queue from .*backups/m);
    expect(r.stdout).toMatch(/^The damaged database is kept as /m);
    expect(r.stdout).toMatch(/^Nothing more could be read from the damaged file\.$/m);
    expect(r.stdout).toMatch(/^Not recovered from it: file is not a database\.$/m);
    expect(r.stdout).toMatch(
      /^The service lists 3 dubs the restored queue does not know \(said-cli-\d\.mp4 → es, said-cli-\d\.mp4 → es, said-cli-\d\.mp4 → es\)/m,
    );
  });

  it('two files of the same name and length made since the backup: neither takes a dub it cannot tell is its own, none is paid again', async () => {
    const sb = await sandbox();
    const [a, b] = [tempDir(), tempDir()];
    const files = [join(a, 'intro.mp4'), join(b, 'intro.mp4')];
    copyFileSync(videoMp4(1, 'intro-a.mp4'), files[0] ?? '');
    copyFileSync(videoMp4(1, 'intro-b.mp4'), files[1] ?? '');
    const { home } = await dubbedThenRestored(sb, files, junk, { outDir: tempDir() });
    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    await host.api.add({ inputs: files, to: ['es'], outDir: tempDir() });
    expect(await host.run(quickRun(2))).toBe('done');
    expect(madeOf(sb, ['intro.mp4']).dubs).toHaveLength(2);
    const jobs = (await host.api.listJobs({ offset: 0, limit: 50 })).jobs;
    for (const j of jobs) {
      expect(j.state).toBe('failed');
      expect(j.error?.remedy).toMatch(/account/);
    }
  });

  it.each([
    ['cli', 'a dubdesk command'],
    ['web', '`dubdesk serve`'],
    ['electron', 'the Dubdesk app'],
  ] as const)(
    'refuses while another Dubdesk works on the data folder, naming it (%s: %s)',
    async (face, named) => {
      const sb = await sandbox();
      const home = tempDir();
      const open = openDubdesk({ home, face, service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey } });
      cleanup.push(() => open.close());
      const r = await runCli(['restore-db'], envFor(sb, home));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`another Dubdesk is using ${home}: ${named} (pid ${process.pid}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );
});

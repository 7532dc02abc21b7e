import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { addFolder, eventsOnlyEngine, filesOf, folderOf, running, waitFor } from '../../helpers/watch';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The paths of the folder's files, relative to it, sorted. */
const listed = async (api: Parameters<typeof filesOf>[0], id: number, dir: string) =>
  (await filesOf(api, id)).map((f) => f.path.slice(dir.length + 1)).sort();

describe('folders made inside a watched folder', () => {
  it('a tree moved in, and folders made with mkdir -p: every file in them is found, then and later', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = await eventsOnlyEngine(sb);
    cleanup.push(() => host.close());
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(host.api, dir, { recursive: true });
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      'watching',
      () => folderOf(host.api, folder.id),
      (f) => f.status === 'watching',
    );

    // A shoot prepared elsewhere, moved in whole: one rename, one event for its top folder.
    const outside = tempDir('dubdesk-shoot-');
    fs.mkdirSync(join(outside, 'shoot', 'day1', 'cam-a'), { recursive: true });
    fs.writeFileSync(join(outside, 'shoot', 'day1', 'cam-a', 'take1.mp4'), 'take 1\n');
    fs.renameSync(join(outside, 'shoot'), join(dir, 'shoot'));
    // Folders made at once, a file in the deepest.
    fs.mkdirSync(join(dir, 'a', 'b', 'c'), { recursive: true });
    fs.writeFileSync(join(dir, 'a', 'b', 'c', 'first.mp4'), 'first\n');
    await waitFor(
      'the files already in the new folders',
      () => listed(host.api, folder.id, dir),
      (paths) => paths.length === 2,
    );
    // Made later, deep in those folders: heard only if each folder got its own watch.
    fs.writeFileSync(join(dir, 'shoot', 'day1', 'cam-a', 'take2.mp4'), 'take 2\n');
    fs.writeFileSync(join(dir, 'a', 'b', 'c', 'second.mp4'), 'second\n');
    const paths = await waitFor(
      'the files made later',
      () => listed(host.api, folder.id, dir),
      (p) => p.length === 4,
    );
    expect(paths).toEqual([
      'a/b/c/first.mp4',
      'a/b/c/second.mp4',
      'shoot/day1/cam-a/take1.mp4',
      'shoot/day1/cam-a/take2.mp4',
    ]);
  });
});

/**
 * A drop folder others can write into (a shared drive) must not let them make Dubdesk upload, pay for and
 * publish any video the owner can read: a link is taken only when it leads to a file inside the watched
 * folder that belongs to the owner. Plain files are taken as always.
 */
import { chownSync, copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { addFolder, filesOf, jobsOf, waitFor, watchingSandbox, allCompleted } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('links in a watched folder', () => {
  it('a link leading out of the folder is not taken, and says why; a plain file and a link inside are', async () => {
    const { sb, api } = await watchingSandbox(cleanup);
    const drop = tempDir('dubdesk-drop-');
    const privateDir = tempDir('dubdesk-private-');
    copyFileSync(videoMp4(2, 'links-secret.mp4'), join(privateDir, 'secret.mp4'));
    // Planted by someone who can write into the drop folder: a link to the owner's private video, and one
    // through a folder link.
    symlinkSync(join(privateDir, 'secret.mp4'), join(drop, 'steal.mp4'));
    symlinkSync(privateDir, join(drop, 'private'));
    symlinkSync(join(drop, 'private', 'secret.mp4'), join(drop, 'steal-through.mp4'));
    // The owner's own: a plain file, and a link to a file inside the folder.
    copyFileSync(videoMp4(2, 'links-plain.mp4'), join(drop, 'plain.mp4'));
    mkdirSync(join(drop, 'masters'));
    copyFileSync(videoMp4(3, 'links-inside.mp4'), join(drop, 'masters', 'inside.mp4'));
    symlinkSync(join(drop, 'masters', 'inside.mp4'), join(drop, 'inside-link.mp4'));

    const folder = await addFolder(api, drop, { to: ['es'], recursive: false });
    await waitFor('the plain file and the inside link dubbed', () => jobsOf(api, folder.id), allCompleted(2));
    const files = await waitFor(
      'both outside links refused',
      () => filesOf(api, folder.id),
      (f) => ['steal.mp4', 'steal-through.mp4'].every((n) => f.find((x) => x.name === n)?.problem),
    );
    for (const name of ['steal.mp4', 'steal-through.mp4']) {
      const file = files.find((f) => f.name === name);
      expect(file?.jobIds, name).toEqual([]);
      expect(file?.problem?.message, name).toContain('outside the watched folder');
    }
    const names = (await jobsOf(api, folder.id)).map((j) => j.source).sort();
    expect(names).toEqual([join(drop, 'inside-link.mp4'), join(drop, 'plain.mp4')]);
    // The service never got the secret: two dubs, of the two files taken.
    expect([...sb.state.dubs.values()].map((d) => d.name).sort()).toEqual(['inside-link.mp4', 'plain.mp4']);
  });

  it.runIf(process.getuid?.() === 0)(
    'a link to another user’s file is not taken, even inside the folder (as root: chown)',
    async () => {
      const { sb, api } = await watchingSandbox(cleanup);
      const drop = tempDir('dubdesk-drop-');
      mkdirSync(join(drop, 'theirs'));
      copyFileSync(videoMp4(2, 'links-theirs.mp4'), join(drop, 'theirs', 'video.mp4'));
      chownSync(join(drop, 'theirs', 'video.mp4'), 65534, 65534);
      symlinkSync(join(drop, 'theirs', 'video.mp4'), join(drop, 'their-link.mp4'));
      const folder = await addFolder(api, drop, { to: ['es'], recursive: false });
      const files = await waitFor(
        'the link refused',
        () => filesOf(api, folder.id),
        (f) => Boolean(f.find((x) => x.name === 'their-link.mp4')?.problem),
      );
      expect(files.find((f) => f.name === 'their-link.mp4')?.problem?.message).toContain('another user');
      expect(sb.state.dubs.size).toBe(0);
    },
  );
});

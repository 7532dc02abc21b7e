/**
 * In the window, a package whose output folder's disk is full says so on its source's row, with what to
 * free where, instead of "made once every language is done"; once the room is there it is made by itself
 * and the row names it. The disk is a real small tmpfs (as root; skipped, and said so, elsewhere).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, statfsSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addButtonShown, bothThemes, PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { noisyVideoMp4 } from '../helpers/media';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { canMountTmpfs, tmpfs } from '../helpers/tmpfs';

const mountable = canMountTmpfs();

describe.skipIf(!mountable)('a package waiting for room, on its row', () => {
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 0.3, ffmpeg: true },
    ready: addButtonShown,
  });

  it('says "disk full: free N MiB in DIR", then names the package once there is room', async () => {
    const mount = tmpfs('48m') ?? '';
    try {
      const source = join(tempDir('dubdesk-package-room-'), 'Réunion à Paris.mp4');
      copyFileSync(noisyVideoMp4(1, 'noisy-1s.mp4'), source);
      const out = join(mount, 'Livrables été');
      mkdirSync(out);
      // Room for the dub's video and half a package more, left by one allocation.
      const filler = join(mount, 'other things.bin');
      const { bavail, bsize } = statfsSync(mount);
      const leave = Math.round(1.5 * statSync(source).size);
      execFileSync('fallocate', ['-l', String(bavail * bsize - leave), filler]);

      await e2e.app.host.api.add({ inputs: [source], to: ['es'], package: 'mkv', outDir: out });
      const { page } = e2e.view;
      const row = page.getByRole('row', { name: /Réunion à Paris\.mp4/ });
      await row
        .getByText(/^Package \(MKV\) waits for room: disk full: free \d+\.0 MiB in Livrables été$/)
        .waitFor(PATIENT);
      // The whole path, as the engine said it, on hover.
      const said = await row.getByText(/^Package \(MKV\) waits for room/).getAttribute('title');
      expect(said).toMatch(new RegExp(`^disk full: free \\d+\\.0 MiB in ${out}$`));
      await bothThemes(page, 'package-room');
      await e2e.inPage(ZOOM_200, async (zoomed) => {
        await zoomed.getByText(/^Package \(MKV\) waits for room/).waitFor(PATIENT);
        await screenshot(zoomed, 'package-room-zoom-200');
      });

      truncateSync(filler, 0);
      await row.getByText(/^Package: Réunion à Paris\.multi\.mkv \(original, Spanish\)$/).waitFor(PATIENT);
      await screenshot(page, 'package-room-made');
    } finally {
      spawnSync('umount', ['-l', mount]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { addButtonShown, appInBrowser, bothThemes, PATIENT } from '../helpers/browser-app';
import { envFor, runCli, startCli } from '../helpers/cli';
import { noisyVideoMp4 } from '../helpers/media';

/**
 * The window shows the queue; a terminal's `dubdesk run`, in a process of its own on the same data folder,
 * works it. The speed and the time left live in the memory of the process that moves the bytes, yet the
 * window's header shows them, and stops showing them once that process is killed without a word.
 */
describe("a terminal works the queue: the open window shows its transfers' speed and time left", () => {
  const e2e = appInBrowser(
    // A slow uplink: the upload lasts long enough to be seen, as on a real connection.
    { sandbox: { pipelineSeconds: 1, linkRateMiBps: 1.5 }, work: false },
    { ready: addButtonShown },
  );
  const speed = () => e2e.view.page.locator('.header-stats dd.w-speed').innerText();
  const timeLeft = () => e2e.view.page.locator('.header-stats dd.w-eta').innerText();

  it('SPEED and TIME LEFT show the uploading process’s figures, and "—" once it is killed -9', async () => {
    const env = envFor(e2e.app.sb, e2e.app.home);
    // The whole file goes up (not only its sound): some 35 MB, over 20 s at the link's rate.
    const video = noisyVideoMp4(6, 'slow upload.mp4');
    const added = await runCli(['add', video, '--to', 'es', '--send', 'file'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(await speed()).toBe('—');

    const run = startCli(['run', '--poll-interval', '0.2'], env);
    try {
      const { page } = e2e.view;
      await page
        .getByRole('row', { name: /slow upload\.mp4/ })
        .getByRole('button', { name: /^Spanish, es\b[^:]*: uploading/ })
        .waitFor(PATIENT);
      await expect.poll(speed, PATIENT).toMatch(/^\d+(\.\d+)? (B|KiB|MiB)\/s$/);
      await expect.poll(timeLeft, PATIENT).toMatch(/\d/);
      await bothThemes(page, 'speed-from-another-process');

      run.child.kill('SIGKILL');
      const ended = await run.done;
      expect(ended.signal).toBe('SIGKILL');
      await expect.poll(speed, PATIENT).toBe('—');
      await expect.poll(timeLeft, PATIENT).toBe('—');
      await bothThemes(page, 'speed-after-the-worker-died');
    } finally {
      run.child.kill('SIGKILL');
      await run.done;
    }
  });
});

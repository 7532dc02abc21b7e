import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKING_STATES } from '../../shared/contract/jobs';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3, textFile, videoMp4 } from '../helpers/media';

async function until(test: () => Promise<boolean>): Promise<void> {
  await expect.poll(test, { timeout: 45_000, interval: 100 }).toBe(true);
}

describe('every screen, light and dark, mid-batch with a failure', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 8, balance: 36_000 }, ready: addButtonShown });

  it('Queue: done, working and failed rows side by side', async () => {
    const { api } = e2e.app.host;
    await api.add({ inputs: [videoMp4(3, 'interview-01.mp4')], to: ['es', 'fr'] });
    await until(async () => (await allJobs(api)).every((j) => j.state === 'completed'));

    e2e.app.sb.faults.set({ rateDubFailure: 1 });
    await api.add({ inputs: [videoMp4(4, 'keynote-2026-final.mp4')], to: ['de'] });
    await until(async () => (await allJobs(api)).some((j) => j.remoteId !== null && j.destLang === 'de'));
    e2e.app.sb.faults.set({ rateDubFailure: 0 });
    await api.add({
      inputs: [
        videoMp4(5, 'product-demo.mp4'),
        audioMp3(6, 'podcast-episode-42.mp3'),
        videoMp4(
          4,
          'customer testimonial recorded on location in Lisbon with two cameras and a lavalier, final cut.mp4',
        ),
      ],
      to: ['es', 'fr', 'de', 'ja'],
    });
    await until(async () => {
      const jobs = await allJobs(api);
      return jobs.some((j) => j.state === 'failed') && jobs.some((j) => WORKING_STATES.includes(j.state));
    });
    const { page } = e2e.view;
    await page.getByRole('button', { name: /^German, de: failed/ }).waitFor();
    // The totals follow a change by up to a quarter of a second: the sidebar counts the failure too.
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Failed\s*1$/ })
      .waitFor();
    await bothThemes(page, 'queue');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Job panel: a finished dub with its preview', async () => {
    const { page } = e2e.view;
    await page
      .getByRole('row', { name: /interview-01\.mp4/ })
      .getByRole('button', { name: /^Spanish, es: done/ })
      .click();
    await page.getByRole('complementary').locator('video').waitFor();
    await page
      .getByRole('complementary')
      .locator('video')
      .evaluate(
        (v: HTMLVideoElement) =>
          new Promise<void>((resolve) => {
            if (v.readyState >= 2) resolve();
            else v.addEventListener('loadeddata', () => resolve(), { once: true });
          }),
      );
    // The length in words, not "0.00 s against the source".
    await page
      .getByRole('complementary')
      .getByText(/^(as long as the source|\d+\.\d\d s (longer|shorter) than the source)$/)
      .waitFor();
    await bothThemes(page, 'job-panel');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close job panel' }).click();
  });

  it('Add: files with their lengths, a bad file with its reason, the estimate against the balance', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await page.setInputFiles('[data-testid=file-input]', [
      videoMp4(7, 'launch-trailer.mp4'),
      videoMp4(9, 'behind-the-scenes.mp4'),
      textFile('notes-for-editor.mp4', 'call me before the final cut\n'),
    ]);
    const box = page.getByRole('combobox', { name: /Dub into/ });
    for (const name of ['Spanish', 'Japanese', 'Portuguese']) {
      await box.fill(name);
      await box.press('Enter');
    }
    await box.press('Tab');
    await sheet.getByRole('checkbox', { name: /Studio quality/ }).check();
    await expect
      .poll(() => page.getByTestId('estimate-jobs').textContent(), PATIENT)
      .toBe('2 files × 3 languages = 6 dubs');
    await sheet.getByText('— skipped').waitFor();
    await bothThemes(page, 'add');
    expect(await seriousViolations(page)).toEqual([]);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });

  it('Settings: the key tested against the account', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Test key' }).click();
    await page.getByText(/balance [\d,]+ cr/).waitFor();
    // The key comes from the environment here: it wins over any saved one, so no "type a new one".
    await page.getByText(/comes from the environment \(DUBDESK_API_KEY\)/).waitFor();
    expect(await page.getByText(/Type a new one to replace it/).count()).toBe(0);
    await bothThemes(page, 'settings');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Watch: the folders screen and its form', async () => {
    const { page } = e2e.view;
    // Once the engine has watched folders, the picture shows one at work; until then, the empty screen.
    const folder = join(tempDir('dubdesk-watch-'), 'Dubbing', 'to-es-fr');
    mkdirSync(folder, { recursive: true });
    copyFileSync(videoMp4(3, 'interview-01.mp4'), join(folder, 'episode-01.mp4'));
    await e2e.app.host.api
      .addWatchFolder({ path: folder, preset: { to: ['es', 'fr'], creditLimit: 3600 } })
      .catch(() => undefined);
    await page.getByRole('button', { name: /^Watched folders/ }).click();
    await page.getByRole('heading', { name: 'Watched folders' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await bothThemes(page, 'watch');

    await page.getByRole('button', { name: '+ Watch a folder' }).click();
    const form = page.getByRole('dialog', { name: 'Watch a folder' });
    await form.getByRole('textbox', { name: 'Folder' }).fill(e2e.app.home);
    const box = form.getByRole('combobox', { name: /Dub into/ });
    await box.fill('French');
    await box.press('Enter');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'hidden' });
  });

  it('200% zoom (a 1280 x 800 window): every state, Watched folders and Settings in view; the Add sheet', async () => {
    await e2e.inPage(ZOOM_200, async (page, zoomed) => {
      await page.getByRole('button', { name: '+ Add files' }).waitFor();
      for (const name of [/^Canceled/, /^Watched folders/, /^Settings/]) {
        const box = await page
          .getByRole('link', { name })
          .or(page.getByRole('button', { name }))
          .first()
          .boundingBox();
        expect(box, String(name)).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), String(name)).toBeLessThanOrEqual(640);
      }
      await screenshot(page, 'queue-zoom-200');
      await page.getByRole('button', { name: '+ Add files' }).click();
      await page.getByRole('dialog', { name: 'Add to queue' }).waitFor();
      await screenshot(page, 'add-zoom-200');
      expect(zoomed.troubles).toEqual({ console: [], requests: [] });
    });
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { speechVideo } from '../helpers/deliver-media';
import { allJobs } from '../helpers/engine';
import { openedApp } from '../helpers/opened-app';

describe('the job panel says which file QC measured', () => {
  // Sending the sound alone: French runs 4 s past the picture, so the video made here cuts it.
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 1, balance: 36_000, ffmpeg: true, faults: { badDubs: { fr: ['long'] } } },
    ready: addButtonShown,
  });

  it('the video made here, named, with how the dub was fitted to its picture', async () => {
    const { api } = e2e.app.host;
    await api.add({ inputs: [speechVideo(12, 'allocution.mp4')], to: ['es', 'fr'], send: 'audio' });
    await expect
      .poll(async () => (await allJobs(api)).every((j) => j.qc != null), { ...PATIENT, timeout: 90_000 })
      .toBe(true);
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /allocution\.mp4/ });
    await row.getByRole('button', { name: /^French, fr: done, QC failed/ }).click(PATIENT);
    const panel = page.getByRole('complementary');
    const figures = panel.locator('dl.qc-figures');
    await figures.getByText('Measured', { exact: true }).waitFor(PATIENT);
    await figures.getByText('allocution.fr.mp4', { exact: true }).waitFor();
    await figures
      .getByText(/the video made here, the dub cut by (3\.9\d|4\.0\d) s at the picture's end/)
      .waitFor();
    await panel
      .getByText(/allocution\.fr\.mp4 cuts its last (3\.9\d|4\.0\d) s at the picture's end/)
      .waitFor();
    await panel.locator('section.qc').scrollIntoViewIfNeeded();
    await bothThemes(page, 'qc-panel-measured-rebuilt');
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('button', { name: /^Spanish, es: done, QC passed/ }).click();
    await figures.getByText('allocution.es.mp4', { exact: true }).waitFor(PATIENT);
    await figures.getByText(/^ · the video made here$/).waitFor();
    await panel.locator('section.qc').scrollIntoViewIfNeeded();
    await bothThemes(page, 'qc-panel-measured-pass');

    await e2e.inPage(ZOOM_200, async (zoomed) => {
      await zoomed.getByRole('button', { name: /^French, fr: done, QC failed/ }).click(PATIENT);
      await zoomed.getByRole('complementary').locator('dl.qc-figures').scrollIntoViewIfNeeded();
      await screenshot(zoomed, 'qc-panel-measured-zoom-200');
    });
  });
});

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { talkVideo, withAudioFilter } from '../helpers/deliver-media';
import { allJobs } from '../helpers/engine';

describe('QC on the chips and in the job panel; the package on the row', () => {
  // French comes out 4 s short with a cue too fast to read (fails), German with 6 s of silence (a look).
  const e2e = openedApp({
    sandbox: {
      pipelineSeconds: 1,
      balance: 36_000,
      // The bad dubs' sound is spoiled with ffmpeg (the other browser tests run the sandbox without it).
      ffmpeg: true,
      faults: { badDubs: { fr: ['short', 'subtitles-fast'], de: ['silence'], it: ['loud'] } },
    },
    ready: addButtonShown,
  });

  it('a failed QC is marked on its chip and said in the panel, with what to do; nothing is hidden', async () => {
    const { api } = e2e.app.host;
    await api.add({ inputs: [talkVideo(12, 'keynote.mp4')], to: ['es', 'fr', 'de'], package: 'mkv' });
    await expect
      .poll(
        async () => {
          const jobs = await allJobs(api);
          return jobs.length === 3 && jobs.every((j) => j.qc != null);
        },
        { ...PATIENT, timeout: 90_000 },
      )
      .toBe(true);
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /keynote\.mp4/ });
    await row
      .getByRole('button', { name: /^French, fr: done, QC failed \(the dub's sound is/ })
      .waitFor(PATIENT);
    await row
      .getByRole('button', { name: /^German, de: done, QC: worth a look \(the dub is silent from/ })
      .waitFor();
    await row.getByRole('button', { name: /^Spanish, es: done, QC passed/ }).waitFor();
    // The row's summary says it too, for a user scanning rows: not "all done".
    await row.getByText(/^⚠ done · 1 QC failed · 1 worth a look$/).waitFor();
    expect(await row.getByText('all done').count()).toBe(0);
    await row
      .getByText(/^Package: keynote\.multi\.mkv \(original, Spanish, French, German\)/)
      .waitFor(PATIENT);
    await bothThemes(page, 'qc-chips');

    await row.getByRole('button', { name: /^French, fr:/ }).click();
    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Quality check' }).waitFor();
    await panel.getByText('QC failed').waitFor();
    await panel.getByText(/the dub's sound is \d\.\d\d s shorter than the source/).waitFor();
    await panel.getByText(/cue asks for more than 20 characters a second/).waitFor();
    // Its files are all still there; the one QC measured is named beside its figures.
    await panel.locator('.file-name', { hasText: /^keynote\.fr\.mp4$/ }).waitFor();
    await panel.locator('dl.qc-figures').getByText('keynote.fr.mp4', { exact: true }).waitFor();
    await panel
      .locator('dl.qc-figures')
      .getByText(/^ · as the service sent it$/)
      .waitFor();
    await bothThemes(page, 'qc-panel');
    expect(await seriousViolations(page)).toEqual([]);

    // Dub again asks first, with its cost; keeping as is changes nothing.
    await panel.getByRole('button', { name: 'Dub again…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/^The service charges about 1\d cr again\./).waitFor();
    await dialog.getByRole('button', { name: /^Dub again \(1\d credits\)$/ }).waitFor();
    await screenshot(page, 'qc-dub-again-confirm');
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    expect((await allJobs(api)).length).toBe(3);
  });

  it('at 200% zoom the marks and the QC section still read', async () => {
    await e2e.inPage(ZOOM_200, async (page) => {
      const chip = page.getByRole('button', { name: /^French, fr: done, QC failed/ });
      await chip.waitFor(PATIENT);
      await screenshot(page, 'qc-chips-zoom-200');
      await chip.click();
      await page
        .getByRole('complementary')
        .getByRole('heading', { name: 'Quality check' })
        .scrollIntoViewIfNeeded();
      await screenshot(page, 'qc-panel-zoom-200');
    });
  });

  it('Package now on a finished source: its package is there and up to date, not made twice', async () => {
    const { page } = e2e.view;
    const panel = page.getByRole('complementary');
    await panel.getByRole('button', { name: 'Package now' }).click();
    await page.getByText(/the MKV with every finished language is being made/).waitFor(PATIENT);
    await page
      .getByRole('row', { name: /keynote\.mp4/ })
      .getByText(/^Package: keynote\.multi\.mkv \(original, Spanish, French, German\)/)
      .waitFor(PATIENT);
    const [source] = (await allJobs(e2e.app.host.api)).map((j) => j.source);
    expect(existsSync(join(dirname(source ?? ''), 'previous'))).toBe(false);
  });

  it('a web-loud source: the panel says the source itself is that loud, and which target fits', async () => {
    const { api } = e2e.app.host;
    // About -14 LUFS, as web video is; the sandbox's dub keeps its sound.
    const web = withAudioFilter(talkVideo(12), 'volume=9dB', 'web clip.mp4');
    await api.add({ inputs: [web], to: ['es'] });
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /web clip\.mp4/ });
    await row.getByRole('button', { name: /^Spanish, es: done, QC failed \(integrated loudness/ }).waitFor({
      ...PATIENT,
      timeout: 90_000,
    });
    await row.getByRole('button', { name: /^Spanish, es:/ }).click();
    const panel = page.getByRole('complementary');
    await panel
      .getByText(/the source itself is at -1[345]\.\d LUFS: the dub is as loud as its original/)
      .waitFor();
    // The window's words: what its button does, beside it; the terminal's command stays in the terminal.
    await panel
      .getByText(/For a web platform, “Check against the web target” below judges it at -14 LUFS, at no cost/)
      .waitFor();
    expect(
      await panel
        .locator('section.qc')
        .getByText(/`dubdesk |--loudness/)
        .count(),
    ).toBe(0);
    const figures = panel.locator('dl.qc-figures');
    await figures.getByText('Source loudness', { exact: true }).waitFor();
    await figures.getByText(/^-1[345]\.\d LUFS$/).waitFor();
    // Dubbing it again would give the same sound: the panel does not offer to charge for it.
    expect(await panel.getByRole('button', { name: 'Dub again…' }).count()).toBe(0);
    await bothThemes(page, 'qc-panel-web-loud-source');
    expect(await seriousViolations(page)).toEqual([]);
    await e2e.inPage(ZOOM_200, async (zoomed) => {
      await zoomed.getByRole('button', { name: /^Spanish, es: done, QC failed/ }).click(PATIENT);
      await zoomed
        .getByRole('complementary')
        .getByRole('button', { name: 'Check against the web target' })
        .scrollIntoViewIfNeeded();
      await screenshot(zoomed, 'qc-panel-web-loud-zoom-200');
    });

    // The web target, for this dub already made: judged again at once from what was measured, nothing asked
    // or charged, and the chip follows.
    await panel.getByRole('button', { name: 'Check against the web target' }).click();
    await page.getByText(/judged against the web target \(-14 LUFS\); nothing was charged/).waitFor(PATIENT);
    await panel.getByText('QC passed').waitFor();
    await figures.getByText(/target -14 LUFS ±2, web platforms/).waitFor();
    await row.getByRole('button', { name: /^Spanish, es: done, QC passed/ }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Check against the/ }).count()).toBe(0);
    const jobs = await allJobs(api);
    expect(jobs.find((j) => j.source === web)?.qc?.target.name).toBe('web');
    await bothThemes(page, 'qc-panel-judged-web');
  });

  it('a dub pushed past full scale: its true peak is said with its sign', async () => {
    const { api } = e2e.app.host;
    await api.add({ inputs: [talkVideo(12, 'loud talk.mp4')], to: ['it'] });
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /loud talk\.mp4/ });
    const chip = row.getByRole('button', { name: /^Italian, it: done, QC failed/ });
    await chip.waitFor({ ...PATIENT, timeout: 90_000 });
    await chip.click();
    const figures = page.getByRole('complementary').locator('dl.qc-figures');
    await figures.getByText(/^\+\d+\.\d dBTP$/).waitFor();
    await bothThemes(page, 'qc-panel-true-peak');
  });
});

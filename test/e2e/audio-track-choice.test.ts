/**
 * The Add sheet's audio track choice, as a person uses it: the file's tracks are listed by number,
 * language, title and channels once it is read; the French one is picked and the estimate bills its 4 s;
 * the job queued dubs it. A language the file lacks leaves it out, saying which tracks it has. Screenshots
 * light, dark and at 200%.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { allJobs } from '../helpers/engine';
import { sheetWithFile } from '../helpers/add-sheet';
import { openedApp } from '../helpers/opened-app';
import { videoWithTracks } from '../helpers/track-media';

/** The Add sheet with `file` typed in, into Spanish, sending the sound alone; its track choice. */
async function sheetWith(page: Page, file: string) {
  const sheet = await sheetWithFile(page, file);
  await sheet.getByRole('radio', { name: /Only the sound/ }).check();
  return { sheet, track: sheet.getByRole('combobox', { name: 'Audio track' }) };
}

describe('the Add sheet: which audio track is dubbed', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 8, balance: 36_000 }, ready: addButtonShown });
  const film = () => videoWithTracks('Film with commentary.mp4');

  it("lists the file's tracks once read; the French one is billed and queued", async () => {
    const { page } = e2e.view;
    const { sheet, track } = await sheetWith(page, film());
    await track
      .locator('option', { hasText: '2 · fre · Version française · stereo' })
      .waitFor({ state: 'attached', ...PATIENT });
    expect(await track.locator('option').first().textContent()).toBe(
      '1 · eng · Main mix · stereo (the first)',
    );
    await track.selectOption('2');
    await sheet.getByText('The sound that is dubbed; the package keeps the others after it.').waitFor();
    // The French track lasts 4 s of the film's 6: 4 credits.
    await sheet
      .getByText(/^4 credits?\b|^4 cr\b/)
      .first()
      .waitFor(PATIENT);
    await track.scrollIntoViewIfNeeded();
    await bothThemes(page, 'add-audio-track');
    expect(await seriousViolations(page)).toEqual([]);
    await sheet.getByRole('button', { name: 'Add and start' }).click();
    await expect
      .poll(async () => (await allJobs(e2e.app.host.api)).map((j) => j.audioTrack), PATIENT)
      .toEqual(['2']);
    // The job panel says which track it dubs.
    await page
      .getByRole('row', { name: /Film with commentary\.mp4/ })
      .getByRole('button', { name: /^Spanish, es:/ })
      .click();
    const panel = page.getByRole('complementary');
    await panel.getByText('Audio track', { exact: true }).waitFor(PATIENT);
    await panel.getByText('Track 2', { exact: true }).scrollIntoViewIfNeeded();
    await bothThemes(page, 'job-panel-audio-track');
  });

  it('a language the file lacks leaves it out, naming its tracks', async () => {
    const { page } = e2e.view;
    const { sheet, track } = await sheetWith(page, film());
    await track.locator('option', { hasText: 'Commentary' }).waitFor({ state: 'attached', ...PATIENT });
    await track.selectOption({ label: 'German' });
    await sheet
      .getByText(/has no ger audio track: its audio tracks are 1 \(eng, Main mix, stereo\)/)
      .waitFor(PATIENT);
    await bothThemes(page, 'add-audio-track-missing');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });

  it('at 200% zoom the choice and its tracks still read', async () => {
    await e2e.inPage(ZOOM_200, async (page) => {
      const { track } = await sheetWith(page, film());
      await track.locator('option', { hasText: 'Commentary' }).waitFor({ state: 'attached', ...PATIENT });
      await track.selectOption('3');
      await track.scrollIntoViewIfNeeded();
      await screenshot(page, 'add-audio-track-zoom-200');
    });
  });
});

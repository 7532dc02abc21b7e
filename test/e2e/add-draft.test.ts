/**
 * The Add sheet keeps what the user put in it (issue 31.10, 31.11): Escape or ✕ close it without throwing
 * away the files already sent from the browser, and "+ Add files" brings them back; "Start over" and Cancel
 * are the ways to clear it. "Save to" is remembered for this face (in the settings, so a reload keeps it).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';

async function pickLanguage(page: Page, name: string, code: string): Promise<void> {
  const box = page.getByRole('combobox', { name: /Dub into/ });
  await box.fill(name);
  await page.getByRole('option', { name: new RegExp(`^${name} ${code}( |$)`) }).waitFor();
  await box.press('Enter');
}

const sheetOf = (page: Page) => page.getByRole('dialog', { name: 'Add to queue' });
const fileLine = (page: Page, name: string) => sheetOf(page).getByRole('listitem').filter({ hasText: name });

describe('the Add sheet keeps its draft', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, work: false, ready: addButtonShown });

  it('Escape twice, then "+ Add files": the files sent and the languages are still there', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = sheetOf(page);
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', [
      videoMp4(3, 'draft-one.mp4'),
      videoMp4(4, 'draft-two.mp4'),
    ]);
    await pickLanguage(page, 'Korean', 'ko');
    await fileLine(page, 'draft-two.mp4').getByTestId('file-credits').waitFor(PATIENT);
    // The first Escape closes the language list, the second the sheet (as a person presses it).
    await page.getByRole('combobox', { name: /Dub into/ }).fill('Germ');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await page.getByText(/2 files kept/).waitFor(PATIENT);

    await page.getByRole('button', { name: '+ Add files' }).click();
    await sheet.waitFor();
    await fileLine(page, 'draft-one.mp4').waitFor(PATIENT);
    await fileLine(page, 'draft-two.mp4').waitFor(PATIENT);
    await sheet.getByRole('button', { name: /Remove Korean/ }).waitFor();
    await screenshot(page, 'add-sheet-kept-draft');
    expect(await seriousViolations(page)).toEqual([]);

    // ✕ keeps it too; Start over empties it, and so does Cancel.
    await sheet.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('Control+o');
    await fileLine(page, 'draft-one.mp4').waitFor(PATIENT);
    await sheet.getByRole('button', { name: 'Start over' }).click();
    await expect.poll(() => sheet.getByRole('listitem').count(), PATIENT).toBe(0);
    expect(await sheet.getByRole('button', { name: /Remove Korean/ }).count()).toBe(0);
    await page.setInputFiles('[data-testid=file-input]', videoMp4(3, 'draft-one.mp4'));
    await fileLine(page, 'draft-one.mp4').waitFor(PATIENT);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+o');
    await sheet.getByRole('button', { name: 'Add and start' }).waitFor();
    expect(await sheet.getByRole('listitem').count()).toBe(0);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });

  it('"Save to" is remembered for the next batch, and after a reload', async () => {
    const { page } = e2e.view;
    const chosen = join(tempDir('dubdesk-e2e-save-to-'), 'Dubbed');
    mkdirSync(chosen);
    await page.keyboard.press('Control+o');
    const sheet = sheetOf(page);
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', videoMp4(2, 'save-to.mp4'));
    await pickLanguage(page, 'Korean', 'ko');
    await sheet.getByRole('textbox', { name: 'Save to' }).fill(chosen);
    const add = sheet.getByRole('button', { name: 'Add and start' });
    await expect.poll(() => add.isEnabled(), PATIENT).toBe(true);
    await add.click();
    await sheet.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /save-to\.mp4/ }).waitFor(PATIENT);

    await page.keyboard.press('Control+o');
    expect(await sheet.getByRole('textbox', { name: 'Save to' }).inputValue()).toBe(chosen);
    // The batch was added: the sheet starts empty, with the folder chosen last.
    expect(await sheet.getByRole('listitem').count()).toBe(0);
    await page.keyboard.press('Escape');

    const before = e2e.view.troubles.requests.length;
    await page.reload();
    await addButtonShown(page);
    // What the old page had in flight is dropped by the reload itself: not a failure of the app.
    const during = e2e.view.troubles.requests.splice(before);
    expect(during.filter((r) => !r.endsWith('net::ERR_ABORTED'))).toEqual([]);
    await page.keyboard.press('Control+o');
    await expect
      .poll(() => sheet.getByRole('textbox', { name: 'Save to' }).inputValue(), PATIENT)
      .toBe(chosen);
    expect((await e2e.app.host.api.getSettings()).lastOutDir).toBe(chosen);
    await page.keyboard.press('Escape');
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

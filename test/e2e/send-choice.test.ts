/**
 * The Add sheet's send choice (issue 34) as a person uses it: the sound alone is picked, and the estimate
 * says what goes up instead of the whole file; the whole file says so too. Screenshots, light and dark.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';

/** The Add sheet with `files` picked as a person picks them, into `languages`, sending the sound alone. */
async function soundAloneFor(page: Page, files: string[], languages: string[]) {
  await page.getByRole('button', { name: '+ Add files' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  await page.setInputFiles('[data-testid=file-input]', files);
  const box = page.getByRole('combobox', { name: /Dub into/ });
  for (const name of languages) {
    await box.fill(name);
    await box.press('Enter');
  }
  await box.press('Tab');
  await sheet.getByRole('radio', { name: /Only the sound/ }).check();
  return { sheet, sends: page.getByTestId('estimate-sends') };
}

describe('the Add sheet: what is sent', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 8, balance: 36_000 }, ready: addButtonShown });

  it('shows "sends … (audio) instead of …" for the sound alone, and the whole files when that is picked', async () => {
    const { page } = e2e.view;
    const { sheet, sends } = await soundAloneFor(
      page,
      [videoMp4(40, 'keynote-rehearsal.mp4'), videoMp4(25, 'product tour (final).mp4')],
      ['Spanish', 'French'],
    );
    await expect
      .poll(() => sends.textContent(), PATIENT)
      .toMatch(/^Sends [\d.]+ [KM]iB \(audio\) instead of [\d.]+ [KM]iB$/);
    await sheet.getByText(/your picture never leaves this computer/).scrollIntoViewIfNeeded();
    await bothThemes(page, 'add-send-audio');
    expect(await seriousViolations(page)).toEqual([]);

    await sheet.getByRole('radio', { name: /The whole file/ }).check();
    await expect.poll(() => sends.textContent(), PATIENT).toMatch(/^Sends [\d.]+ [KM]iB \(whole files\)$/);
    await bothThemes(page, 'add-send-file');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });

  it('"instead of" is what the whole file would really send, upload once counted, as the whole-file choice says', async () => {
    const { page } = e2e.view;
    // A real MP4 header with a sparse tail: a 60 MiB talk, over the line where upload once pays off.
    const talk = join(tempDir('instead'), 'talk (60 MiB).mp4');
    await copyFile(videoMp4(3, 'sheet-instead-of.mp4'), talk);
    await truncate(talk, 60 * 1024 * 1024);
    const { sheet, sends } = await soundAloneFor(page, [talk], ['Spanish', 'French', 'German']);
    await expect
      .poll(() => sends.textContent(), PATIENT)
      .toMatch(/^Sends [\d.]+ KiB \(audio\) instead of 60 MiB$/);
    await sheet.getByText(/your picture never leaves this computer/).scrollIntoViewIfNeeded();
    await bothThemes(page, 'add-send-instead-of');
    await sheet.getByRole('radio', { name: /The whole file/ }).check();
    await expect.poll(() => sends.textContent(), PATIENT).toBe('Sends 60 MiB (whole files)');
    await expect
      .poll(() => page.getByTestId('estimate-upload-once').textContent(), PATIENT)
      .toBe('The file is uploaded once for all its languages, 120 MiB less to send.');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });
});

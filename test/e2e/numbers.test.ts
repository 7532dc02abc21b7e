/**
 * The numbers the Add sheet and the queue show in the browser (issue 31.5, 31.7, 31.8): a length is the
 * one billed (4.23 s reads 0:05 beside its 5 credits a language), sizes are MiB, and "uploaded once" says
 * how many of the batch's files are.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3, videoMp4 } from '../helpers/media';

async function pickLanguage(page: Page, name: string, code: string): Promise<void> {
  const box = page.getByRole('combobox', { name: /Dub into/ });
  await box.fill(name);
  await page.getByRole('option', { name: new RegExp(`^${name} ${code}( |$)`) }).waitFor();
  await box.press('Enter');
}

describe('the numbers of a batch in the browser', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, work: false, ready: addButtonShown });

  it('billed lengths, MiB, and upload-once for the files it is true of', async () => {
    const { page } = e2e.view;
    const folder = tempDir('dubdesk-e2e-numbers-');
    const big = join(folder, 'master.mp4');
    await copyFile(videoMp4(2, 'numbers-master.mp4'), big);
    await truncate(big, 60 * 1024 * 1024);
    const short = audioMp3(4.2, 'numbers-short.mp3');

    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' }).fill(`${big}\n${short}`);
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    await pickLanguage(page, 'Spanish', 'es');
    await pickLanguage(page, 'French', 'fr');
    // Upload once is about whole files: the sound alone of a 60 MiB file is too small for it to pay off.
    await sheet.getByRole('radio', { name: /The whole file/ }).check();
    const line = (name: string) => sheet.getByRole('listitem').filter({ hasText: name });
    await expect.poll(() => line('numbers-short.mp3').textContent(), PATIENT).toMatch(/0:05 · .*KiB · audio/);
    expect(await line('numbers-short.mp3').getByTestId('file-credits').textContent()).toBe('10 cr');
    expect(await line('master.mp4').textContent()).toContain('60 MiB');
    await expect
      .poll(() => page.getByTestId('estimate-upload-once').textContent(), PATIENT)
      .toBe(
        '1 of 2 files is uploaded once for all its languages, 60 MiB less to send; the other is uploaded for each language.',
      );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `numbers-add-sheet-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 640, height: 400 });
    await screenshot(page, 'numbers-add-sheet-200pct');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await seriousViolations(page)).toEqual([]);

    await sheet.getByRole('button', { name: 'Add and start' }).click();
    await sheet.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: /numbers-short\.mp3/ });
    await row.waitFor(PATIENT);
    expect(await row.locator('.cell-duration').textContent()).toBe('0:05');
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

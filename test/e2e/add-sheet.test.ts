import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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

describe('the Add sheet and the watch form say what is true', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, ready: addButtonShown });

  it('a file added before any language asks for one instead of "reading…"; Recent and Same as last batch follow a batch added here', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', videoMp4(2, 'before-a-language.mp4'));
    const line = sheet.getByRole('listitem').filter({ hasText: 'before-a-language.mp4' });
    await line.getByText(/pick a language to price it/).waitFor(PATIENT);
    expect(await line.getByText('reading…').count()).toBe(0);
    await pickLanguage(page, 'Korean', 'ko');
    await screenshot(page, 'add-sheet');
    await sheet.getByRole('button', { name: /Add and start/ }).click();
    await sheet.waitFor({ state: 'hidden' });

    await page.keyboard.press('Control+o');
    await sheet.waitFor();
    await sheet.getByRole('button', { name: /Same as last batch \(ko\)/ }).waitFor(PATIENT);
    await page.keyboard.press('Escape');
  });

  it('closed and opened again in one breath (Esc or ✕, then Ctrl+O at once), the sheet stays open', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    const openAfterTheCloseLands = await page.evaluate(async () => {
      const dialog = document.querySelector<HTMLDialogElement>('dialog.add-sheet');
      const close = dialog?.querySelector<HTMLButtonElement>('button[aria-label="Close"]');
      if (!dialog || !close) throw new Error('no Add sheet with a close button');
      const closeEvent = new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
      close.click();
      // React closes the dialog in a microtask of the click; the Ctrl+O comes before the next task.
      for (let turn = 0; dialog.open && turn < 100; turn++) await Promise.resolve();
      if (dialog.open) throw new Error('the ✕ did not close the sheet');
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'o', ctrlKey: true, bubbles: true }));
      // The browser tells of the first close a task later, when the sheet is already open again.
      await closeEvent;
      return dialog.open;
    });
    expect(openAfterTheCloseLands).toBe(true);
    expect(await sheet.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });

  it('by keyboard: removing a file moves focus to the next one, and Ctrl+Enter adds the batch', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', [
      videoMp4(2, 'keys-first.mp4'),
      videoMp4(2, 'keys-second.mp4'),
    ]);
    await pickLanguage(page, 'Korean', 'ko');
    const first = sheet.getByRole('button', { name: 'Remove keys-first.mp4' });
    await first.waitFor(PATIENT);
    await first.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), PATIENT)
      .toBe('Remove keys-second.mp4');
    await expect
      .poll(() => sheet.getByRole('button', { name: 'Add and start' }).isEnabled(), PATIENT)
      .toBe(true);
    await page.keyboard.press('Control+Enter');
    await sheet.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /keys-second\.mp4/ }).waitFor(PATIENT);
  });

  it('each file says what it adds to the total: a copy adds 0 and names the file it copies', async () => {
    const { page } = e2e.view;
    const folder = tempDir('dubdesk-e2e-copies-');
    const a = join(folder, 'copy-a.mp4');
    const b = join(folder, 'copy-b.mp4');
    copyFileSync(videoMp4(3, 'copied-3s.mp4'), a);
    copyFileSync(a, b);
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', [a, b]);
    await pickLanguage(page, 'Korean', 'ko');
    const line = (name: string) => sheet.getByRole('listitem').filter({ hasText: name });
    await line('copy-b.mp4').getByText('0 cr (copy of copy-a.mp4)').waitFor(PATIENT);
    await line('copy-a.mp4')
      .getByText(/^3 cr$/)
      .waitFor(PATIENT);
    expect(await sheet.getByTestId('estimate-credits').getAttribute('data-credits')).toBe('3');
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    await sheet.waitFor({ state: 'hidden' });
  });

  it('the watch form asks for a limit per hour, shows a neutral example path, and each card shows where results go', async () => {
    const { page } = e2e.view;
    const out = tempDir('dubdesk-e2e-out-');
    await e2e.app.host.api.addWatchFolder({
      path: tempDir('dubdesk-e2e-watch-'),
      preset: { to: ['es'], outDir: out },
    });
    await page.getByRole('button', { name: /Watched folders/ }).click();
    await page.getByText(`Saves to ${out}`).waitFor(PATIENT);
    await page.getByText(/3,600 cr for each hour of video/).waitFor();
    await page.getByRole('button', { name: /Watch a folder/ }).click();
    await page.getByText('Ask before spending more than (credits per hour)').waitFor();
    expect(await page.locator('input[placeholder*="/Users/"]').count()).toBe(0);
  });
});

/**
 * Numbers typed the way a German (or French, Turkish…) user writes them, into Settings of a browser set to
 * German: a decimal comma ("2,5" MiB/s) and grouped thousands ("5.000" credits). The caps' fields were
 * number inputs, which in Chromium drop a comma as a grouping mark (2,5 became 25) and read "5.000" as five:
 * the cap ten times the one typed, the budget a thousandth of it, both saved without a word.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';

const MIB = 1024 * 1024;

/** Empties a field and types into it, key by key, as a person does. */
async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label);
  await field.click();
  await field.press('Control+a');
  await field.press('Backspace');
  await page.keyboard.type(text);
}

describe('Settings in a German browser', () => {
  const e2e = openedApp({ page: { locale: 'de-DE' } });

  it('"2,5" MiB/s is a cap of 2.5 MiB/s and "5.000" credits a budget of 5,000', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    await typeInto(page, 'Upload cap (MiB/s, all uploads)', '2,5');
    await typeInto(page, 'Download cap (MiB/s)', '20');
    await typeInto(page, 'Monthly budget (credits)', '5.000');
    await page.getByRole('button', { name: 'Save line and spending' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor(PATIENT);
    await screenshot(page, 'locale-inputs-de');
    const saved = await api.getSettings();
    expect([saved.maxUploadRate, saved.maxDownloadRate, saved.monthlyBudget]).toEqual([
      2.5 * MIB,
      20 * MIB,
      5000,
    ]);
  });

  it('what is not a number is said, and nothing is saved', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    const before = await api.getSettings();
    await typeInto(page, 'Upload cap (MiB/s, all uploads)', '2,5,1');
    await page.getByRole('button', { name: 'Save line and spending' }).click();
    await page
      .getByRole('alert')
      .getByText(/Upload cap: .*2,5,1/)
      .waitFor(PATIENT);
    expect((await api.getSettings()).maxUploadRate).toBe(before.maxUploadRate);
  });

  it('a watched folder\'s "1.200" credits per hour is a limit of 1,200', async () => {
    const { page } = e2e.view;
    const folder = join(tempDir('dubdesk-locale-watch-'), 'Klasör');
    mkdirSync(folder);
    await page
      .getByRole('navigation')
      .getByRole('button', { name: /^Watched folders/ })
      .click();
    await page.getByRole('button', { name: '+ Watch a folder' }).click();
    const form = page.getByRole('dialog', { name: 'Watch a folder' });
    await form.getByRole('textbox', { name: 'Folder' }).fill(folder);
    const languages = form.getByRole('combobox', { name: /Dub into/ });
    await languages.fill('Spanish');
    await languages.press('Enter');
    await typeInto(page, 'Ask before spending more than (credits per hour)', '1.200');
    await form.getByRole('button', { name: 'Start watching' }).click();
    await form.waitFor({ state: 'hidden' });
    const [watched] = (await e2e.app.host.api.listWatchFolders()).folders;
    expect(watched?.preset.creditLimit).toBe(1200);
  });
});

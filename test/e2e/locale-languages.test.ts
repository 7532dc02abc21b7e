/**
 * The Add sheet's language list in browsers set to other languages. The names are English, so they are in
 * English alphabetical order whatever the browser's language: a Czech browser's own order puts "Ch" after
 * "H" (Chinese below Hungarian). And a Turkish keyboard's capital of i is İ (dotted), whose lower case is
 * "i̇" (i and a combining dot): typed into the search, it still finds Italian and Indonesian.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';

/** The Add sheet opened by its shortcut, its language search focused. */
async function languageSearch(page: Page) {
  await addButtonShown(page);
  await page.keyboard.press('Control+o');
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  await sheet.waitFor();
  const search = sheet.getByRole('combobox', { name: /Dub into/ });
  await search.focus();
  return { sheet, search };
}

/** The names of the languages the open list offers, top to bottom. */
async function offered(page: Page): Promise<string[]> {
  const names = page.getByRole('listbox').getByRole('option').locator('.option-name');
  await names.first().waitFor(PATIENT);
  return names.allInnerTexts();
}

describe('the language list in a Czech and a Turkish browser', () => {
  const e2e = openedApp({ page: false });

  it('cs-CZ: the languages are in English alphabetical order (Chinese between Catalan and Croatian)', async () => {
    await e2e.inPage({ locale: 'cs-CZ' }, async (page) => {
      const { search } = await languageSearch(page);
      await search.press('ArrowDown');
      const names = await offered(page);
      await screenshot(page, 'locale-languages-cs');
      expect(names.length).toBeGreaterThan(20);
      expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
      expect(names.indexOf('Chinese')).toBeLessThan(names.indexOf('Croatian'));
    });
  });

  it('tr-TR: "İtal" typed with the Turkish capital İ finds Italian, "İNDONES" Indonesian', async () => {
    await e2e.inPage({ locale: 'tr-TR' }, async (page) => {
      const { search } = await languageSearch(page);
      await page.keyboard.type('İtal');
      expect(await offered(page)).toContain('Italian');
      await search.fill('');
      await page.keyboard.type('İNDONES');
      expect(await offered(page)).toContain('Indonesian');
    });
  });
});

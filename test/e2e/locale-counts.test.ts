/**
 * A browser in another language: the page is in English, and every count in it is written one way, the way
 * the sidebar and the toolbar write it ("1,200"). A German browser writes 1200 as "1.200", which in an English
 * sentence reads as one point two; an Egyptian one as "١٬٢٠٠". The queue holds 1,200 files to cancel.
 */
import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { seedQueue } from '../helpers/seed';

const SOURCES = 1200;

describe('counts in a browser set to German or Arabic (Egypt)', () => {
  const e2e = openedApp({ work: false, prepare: (home) => seedQueue(home, SOURCES, ['es']), page: false });

  for (const locale of ['de-DE', 'ar-EG']) {
    it(`${locale}: cancelling all 1,200 rows asks about "1,200 rows", as the toolbar counts them`, async () => {
      await e2e.inPage({ locale }, async (page) => {
        await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor(PATIENT);
        await page.getByRole('grid').focus();
        await page.keyboard.press('Control+a');
        const group = page.getByRole('group', { name: 'Selected rows' });
        await group.getByText('1,200 selected').waitFor(PATIENT);
        await group.getByRole('button', { name: 'Cancel…' }).click();
        const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
        await dialog.first().waitFor(PATIENT);
        await screenshot(page, `locale-counts-${locale}`);
        expect(await dialog.first().innerText()).toContain('Cancel the jobs of all 1,200 rows?');
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count(), PATIENT).toBe(0);
      });
    });
  }
});

/**
 * A row's name beside the job panel: a 1024-pixel window (a laptop, a window put on half of a screen) with
 * the panel open, and a file going into six languages. The chips wrap onto a second line; the name keeps
 * room to be read, not its first letter and an ellipsis.
 */
import { describe, expect, it } from 'vitest';
import { PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';

describe('a row beside the job panel, six languages', () => {
  const e2e = openedApp({ work: false, page: { width: 1024, height: 700 } });

  it('keeps the file name readable and wraps the chips', async () => {
    const name = 'Meeting notes from the Lisbon offsite.mp4';
    await e2e.app.host.api.add({ inputs: [videoMp4(2, name)], to: ['es', 'fr', 'de', 'ja', 'it', 'pt'] });
    const { page } = e2e.view;
    const row = page.getByRole('row', { name: /Meeting notes/ });
    await row.getByRole('button', { name: /^Spanish, es/ }).click(PATIENT);
    await page.getByRole('complementary').waitFor();
    const shown = await row.locator('.source-name').evaluate((el) => {
      const style = getComputedStyle(el);
      return { width: el.getBoundingClientRect().width, em: parseFloat(style.fontSize) };
    });
    // About twenty characters of the name, not "M…".
    expect(shown.width).toBeGreaterThan(8 * shown.em);
  });
});

/**
 * What a new user tripped on in the Add sheet: the Package choice cut to "MKV with every languag…", and
 * the same file added by browsing and by its pasted path listed twice, the second as a "copy of" itself with nothing saying which is which.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bothThemes, PATIENT, ZOOM_200, type PageOptions } from '../helpers/browser-app';
import { sheetWithFile } from '../helpers/add-sheet';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';

/** The choices of a select whose words do not fit its box, as a person sees the chosen one. */
function cutChoices(select: Locator): Promise<string[]> {
  return select.evaluate((el) => {
    const box = el as HTMLSelectElement;
    const style = getComputedStyle(box);
    const ruler = document.createElement('canvas').getContext('2d');
    if (!ruler) return ['no canvas'];
    ruler.font = style.font;
    // What the box leaves for words: its inner width less its padding and the arrow Chromium draws (20 px).
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return [...box.options].filter((o) => ruler.measureText(o.text).width > room).map((o) => o.text);
  });
}

async function openSheet(page: Page, file: string): Promise<Locator> {
  const sheet = await sheetWithFile(page, file);
  await sheet.getByRole('combobox', { name: 'Package' }).selectOption('mkv');
  return sheet;
}

describe('the Add sheet as a new user meets it', () => {
  const e2e = openedApp({ work: false, page: false });

  const looks: [string, PageOptions][] = [
    ['1280x800', {}],
    // Two columns, the Hand on row's two choices side by side at their narrowest.
    ['1040 wide', { width: 1040, height: 800 }],
    ['400 wide', { width: 400, height: 800 }],
    ['200% zoom', ZOOM_200],
  ];
  for (const [label, look] of looks)
    it(`shows every Package choice whole (${label})`, async () => {
      await e2e.inPage(look, async (page) => {
        const sheet = await openSheet(page, videoMp4(3, 'fit-package.mp4'));
        await sheet.getByText('fit-package.mp4').waitFor(PATIENT);
        const pkg = sheet.getByRole('combobox', { name: 'Package' });
        // On the choice, as a person looking at it: the language list closes and the sheet scrolls to it.
        await pkg.focus();
        await pkg.scrollIntoViewIfNeeded();
        await bothThemes(page, `add-sheet-package-${label.replace(/[^0-9a-z]+/g, '-')}`);
        expect(await cutChoices(pkg)).toEqual([]);
        expect(await cutChoices(sheet.getByRole('combobox', { name: 'Plays first' }))).toEqual([]);
      });
    });

  it('the same file browsed and pasted: one line, or the second says it is already in this list', async () => {
    await e2e.inPage({}, async (page) => {
      const file = videoMp4(3, 'fit-twice.mp4');
      const sheet = await openSheet(page, file);
      await sheet.getByText('fit-twice.mp4').waitFor(PATIENT);
      await page.setInputFiles('[data-testid=file-input]', file);
      const lines = sheet.locator('li.estimate-file', { hasText: 'fit-twice.mp4' });
      await expect.poll(() => lines.count(), PATIENT).toBe(2);
      await sheet.getByText(/already in this list/).waitFor(PATIENT);
      await bothThemes(page, 'add-sheet-twice');
      expect(await sheet.getByText(/copy of fit-twice\.mp4/).count()).toBe(0);
    });
  });
});

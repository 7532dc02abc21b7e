/**
 * What a new user tripped on in the Add sheet: the Package choice cut to "MKV with every languag…", the
 * sheet at 200% zoom scrolling its choices in a slot about 200 px tall, and the same file added by browsing
 * and by its pasted path listed twice, the second as a "copy of" itself with nothing saying which is which.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bothThemes, PATIENT, screenshot, ZOOM_200, type PageOptions } from '../helpers/browser-app';
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
  await page.getByRole('button', { name: '+ Add files' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  await sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' }).fill(file);
  await sheet.getByRole('button', { name: 'Add', exact: true }).click();
  const box = sheet.getByRole('combobox', { name: /Dub into/ });
  await box.fill('Spanish');
  await page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
  await box.press('Enter');
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

  it('at 200% zoom shows the choices in most of the sheet, the title and the cost scrolling with them', async () => {
    await e2e.inPage(ZOOM_200, async (page) => {
      const sheet = await openSheet(page, videoMp4(3, 'fit-zoom.mp4'));
      await sheet.getByText('fit-zoom.mp4').waitFor(PATIENT);
      // The cost, once read, is the footer at its tallest.
      await sheet.getByTestId('estimate-credits').waitFor(PATIENT);
      const seen = await sheet.evaluate((el) => {
        const frame = el.querySelector('.dialog-frame')?.getBoundingClientRect();
        const body = el.querySelector('.dialog-body')?.getBoundingClientRect();
        if (!frame || !body) return { body: 0, sheet: 1 };
        const shown = Math.min(body.bottom, frame.bottom) - Math.max(body.top, frame.top);
        return { body: shown, sheet: frame.height };
      });
      await screenshot(page, 'add-sheet-body-200pct');
      expect(seen.body).toBeGreaterThanOrEqual((2 / 3) * seen.sheet);
      // The Add button is there at the end of the one scroll.
      const add = sheet.getByRole('button', { name: 'Add and start' });
      await add.scrollIntoViewIfNeeded();
      await screenshot(page, 'add-sheet-body-200pct-end');
      expect(await add.isEnabled()).toBe(true);
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

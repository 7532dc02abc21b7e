import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';

/** The keyboard's way through the Add sheet: few Tab stops, the shortcut announced, focus on the new batch. */
async function openSheetWith(page: Page, names: string[]) {
  await page.keyboard.press('Control+o');
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  await sheet.waitFor();
  await page.setInputFiles(
    '[data-testid=file-input]',
    names.map((n) => videoMp4(2, n)),
  );
  // Korean may be chosen already (the last batch's languages): Enter would take it out.
  if ((await sheet.getByRole('button', { name: 'Remove Korean' }).count()) === 0) {
    await sheet.getByRole('combobox', { name: /Dub into/ }).focus();
    await page.keyboard.type('Korean');
    await sheet.getByRole('option', { name: /^Korean ko( |$)/ }).waitFor();
    await page.keyboard.press('Enter');
  }
  await expect
    .poll(() => sheet.getByRole('button', { name: 'Add and start' }).isEnabled(), PATIENT)
    .toBe(true);
  return sheet;
}

/** Leaves the sheet and empties its draft (Escape would keep it for the next test): Cancel. */
async function discardDraft(page: Page) {
  const sheet = page.getByRole('dialog', { name: 'Add to queue' });
  if (!(await sheet.isVisible())) {
    await page.keyboard.press('Control+o');
    await sheet.waitFor();
  }
  await sheet.getByRole('button', { name: 'Cancel' }).click();
  await sheet.waitFor({ state: 'hidden' });
}

/** What has focus, as a screen reader would name it (a grid names its active row). */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const rowId = el.getAttribute('aria-activedescendant');
    const row = rowId ? document.getElementById(rowId) : null;
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${name}${row ? ` > ${row.textContent}` : ''}`;
  });
}

describe('the Add sheet by keyboard and screen reader', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1, balance: 1_000_000 }, ready: addButtonShown });
  // A test that failed with the sheet open must not leave it to the next one.
  afterEach(async () => {
    const sheet = e2e.view.page.getByRole('dialog', { name: 'Add to queue' });
    if (await sheet.isVisible()) await discardDraft(e2e.view.page);
  });

  it('"Dub into" comes first after the files, in view at 1280x657 with its list open whole; Add says its shortcut', async () => {
    const { page } = e2e.view;
    await page.setViewportSize({ width: 1280, height: 657 });
    try {
      const sheet = await openSheetWith(page, ['tabs-one.mp4', 'tabs-two.mp4', 'tabs-three.mp4']);
      const add = sheet.getByRole('button', { name: 'Add and start' });
      expect(await add.getAttribute('aria-keyshortcuts')).toContain('Control+Enter');
      const description = await add.evaluate((b) =>
        (b.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(description).toContain('Ctrl+Enter');

      // The sheet's main choice is the first of its options: right after the files, before From and Save to.
      const box = sheet.getByRole('combobox', { name: /Dub into/ });
      const top = async (el: ReturnType<typeof sheet.getByRole>) => (await el.boundingBox())?.y ?? Infinity;
      expect(await top(box)).toBeLessThan(await top(sheet.getByRole('combobox', { name: 'From' })));
      expect(await top(box)).toBeLessThan(await top(sheet.getByRole('textbox', { name: 'Save to' })));
      await box.scrollIntoViewIfNeeded();
      await box.focus();
      const list = sheet.getByRole('listbox', { name: 'Languages' });
      await list.waitFor();
      // The list opens whole inside the window: none of it under the fold or behind the footer.
      const box2 = await list.boundingBox();
      const footer = await sheet.getByRole('button', { name: 'Cancel' }).boundingBox();
      expect(box2).not.toBeNull();
      expect((box2?.y ?? 0) + (box2?.height ?? 0)).toBeLessThanOrEqual(Math.min(657, footer?.y ?? 657));
      expect(box2?.y ?? -1).toBeGreaterThanOrEqual(0);
      await screenshot(page, 'add-sheet-languages-open');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape'); // the list closes
      await discardDraft(page);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('every choice of the sheet is in the Tab order, "Dub into" first, before the Add button', async () => {
    const { page } = e2e.view;
    const sheet = await openSheetWith(page, ['reach-one.mp4']);
    const wanted = [
      ['combobox', 'Dub into: search languages'],
      ['combobox', 'From'],
      ['checkbox', 'Studio quality (2× credits)'],
      ['textbox', 'Save to'],
      ['checkbox', 'Dubbed video'],
      ['checkbox', 'Subtitles'],
      ['checkbox', 'Dubbed audio'],
      ['radio', 'Beside each other (Movie.es.mp4)'],
    ] as const;
    for (const [role, name] of wanted)
      await sheet
        .getByRole(role, { name, exact: true })
        .evaluate((el, n) => el.setAttribute('data-wanted', n), name);
    await sheet.getByRole('button', { name: 'Close' }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => ({
        wanted: document.activeElement?.getAttribute('data-wanted') ?? null,
        text: document.activeElement?.textContent ?? '',
      }));
      if (at.wanted && !reached.includes(at.wanted)) reached.push(at.wanted);
      if (at.text === 'Add and start') break;
    }
    expect(reached).toEqual(wanted.map(([, name]) => name));
    await discardDraft(page);
  });

  it('after Ctrl+Enter, focus is on the new batch in the queue, not on another row or the page', async () => {
    const { page } = e2e.view;
    // A batch before, so the queue has rows that are not the new one.
    let sheet = await openSheetWith(page, ['older-one.mp4', 'older-two.mp4']);
    await sheet.getByRole('button', { name: 'Add and start' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await page.getByRole('row', { name: /older-two\.mp4/ }).waitFor(PATIENT);

    sheet = await openSheetWith(page, ['newest-batch.mp4']);
    // From the language field, where Enter picks a language: Ctrl+Enter adds, and takes no language out.
    await sheet.getByRole('combobox', { name: /Dub into/ }).focus();
    await page.keyboard.press('Control+Enter');
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page), PATIENT).toMatch(/^grid: Queue.* > newest-batch\.mp4/);
    // The keyboard goes on from there: Space selects that row.
    await page.keyboard.press('Space');
    await page.getByRole('row', { name: /newest-batch\.mp4/, selected: true }).waitFor(PATIENT);
  });

  it('after the Add button, focus is on the new batch too', async () => {
    const { page } = e2e.view;
    const sheet = await openSheetWith(page, ['by-button.mp4']);
    await sheet.getByRole('button', { name: 'Add and start' }).focus();
    await page.keyboard.press('Enter');
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page), PATIENT).toMatch(/^grid: Queue.* > by-button\.mp4/);
  });

  it('recent languages and "Same as last batch" are one Tab stop, with arrow keys between them', async () => {
    const { page } = e2e.view;
    const sheet = await openSheetWith(page, ['quick-picks.mp4']);
    const box = sheet.getByRole('combobox', { name: /Dub into/ });
    await box.focus();
    await page.keyboard.press('Backspace'); // Korean out: Recent and Same as last batch offer it again
    await page.keyboard.type('French');
    await sheet.getByRole('option', { name: /^French fr( |$)/ }).waitFor();
    await page.keyboard.press('Enter');
    await sheet.getByRole('toolbar', { name: 'Quick picks' }).waitFor();
    await expect
      .poll(() => sheet.getByRole('button', { name: 'Add and start' }).isEnabled(), PATIENT)
      .toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button: Add Korean, ko');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatch(/^button: Same as last batch \(ko\)/);
    // Then on to the other choices, the languages done.
    await page.keyboard.press('Tab');
    expect(await sheet.getByLabel('From').evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, appInBrowser, PATIENT, screenshot } from '../helpers/browser-app';
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
  const e2e = appInBrowser(
    { sandbox: { pipelineSeconds: 1, balance: 1_000_000 } },
    { ready: addButtonShown },
  );
  // A test that failed with the sheet open must not leave it to the next one.
  afterEach(async () => {
    const sheet = e2e.view.page.getByRole('dialog', { name: 'Add to queue' });
    if (await sheet.isVisible()) await e2e.view.page.keyboard.press('Escape');
  });

  it('the Add button says its shortcut, and few Tab presses lead from the languages to it', async () => {
    const { page } = e2e.view;
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

    await sheet.getByRole('combobox', { name: /Dub into/ }).focus();
    // The languages are the sheet's last field: their list must still open in view, above the footer.
    await screenshot(page, 'add-sheet-languages-open');
    const stops: string[] = [];
    while (stops.length < 40) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Add and start') break;
    }
    expect(stops.at(-1)).toBe('button: Add and start');
    expect(stops.length, stops.join('\n')).toBeLessThanOrEqual(6);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });

  it('every choice of the sheet is still in the Tab order, before the Add button', async () => {
    const { page } = e2e.view;
    const sheet = await openSheetWith(page, ['reach-one.mp4']);
    const wanted = [
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
    const reached = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => ({
        wanted: document.activeElement?.getAttribute('data-wanted') ?? null,
        text: document.activeElement?.textContent ?? '',
      }));
      if (at.wanted) reached.add(at.wanted);
      if (at.text === 'Add and start') break;
    }
    expect([...reached].sort()).toEqual(wanted.map(([, name]) => name).sort());
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
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
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button: Add and start');
  });
});

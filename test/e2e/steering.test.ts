import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isTerminal } from '../../shared/contract/jobs';
import type { WhenDoneExecutor } from '../../electron/engine/index';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, saved, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { seedQueue } from '../helpers/seed';
import { videoMp4 } from '../helpers/media';

/** The sources of the queue's first rows, in the order the list (and the worker) has them. */
async function firstRows(page: Page, n: number): Promise<string[]> {
  const names = await page.locator('[role="row"] .cell-name').allInnerTexts();
  return names.slice(0, n).map((t) => t.split('\n')[0] ?? '');
}

/** The page has its numbers: the balance, the last thing the header learns, is known. */
async function balanceKnown(page: Page): Promise<void> {
  const credits = page.getByTestId('header-credits');
  await expect.poll(async () => /\/ \d/.test(await credits.innerText()), PATIENT).toBe(true);
}

describe('the queue in the order the user drags it, in a big queue', () => {
  const e2e = openedApp({
    // Jobs of no service in particular (''), so the rows read as the queue of the service in use.
    work: false,
    prepare: (home) => void seedQueue(home, 3000, ['es', 'fr'], ''),
    ready: addButtonShown,
  });

  it('the header keeps to one line once the balance is known, so the rows stay under the pointer', async () => {
    const { page } = e2e.view;
    await balanceKnown(page);
    // 6,000 jobs, a balance far short of them: the widest numbers the header says.
    await expect.poll(() => page.getByTestId('header-credits').innerText(), PATIENT).toContain('short by');
    const header = await page.locator('header').boundingBox();
    const button = await page.getByRole('button', { name: '+ Add files' }).boundingBox();
    expect(header?.height).toBeLessThan((button?.height ?? 0) * 2);
  });

  it('a row dragged onto the first one goes before it, and Move to bottom sends it last', async () => {
    const { page } = e2e.view;
    await page.locator('[role="row"]').nth(3).waitFor();
    // A number arriving later may still move the rows (a narrower window's header wraps): drag once settled.
    await balanceKnown(page);
    const before = await firstRows(page, 4);
    // Rows are found by their names: a list redrawn meanwhile may hold its slots in another order.
    const slotOf = (name: string | undefined) =>
      page.locator('.virtual-slot').filter({ has: page.getByText(name ?? '', { exact: true }) });
    await slotOf(before[2]).dragTo(slotOf(before[0]));
    await expect
      .poll(() => firstRows(page, 4), PATIENT)
      .toEqual([before[2], before[0], before[1], before[3]]);
    // The engine's order, not only the page's: the worker would send it first.
    const page0 = await e2e.app.host.api.listSources({ filter: {}, offset: 0, limit: 1 });
    expect(page0.sources[0]?.sourceName).toBe(before[2]);
    await bothThemes(page, 'queue-dragged');

    await page.locator('[role="row"]').nth(0).click();
    await page.getByRole('button', { name: 'Move to bottom' }).click();
    await expect.poll(() => firstRows(page, 1), PATIENT).toEqual([before[0]]);
    const total = (await e2e.app.host.api.listSources({ filter: {}, offset: 0, limit: 1 })).total;
    const last = await e2e.app.host.api.listSources({ filter: {}, offset: total - 1, limit: 1 });
    expect(last.sources[0]?.sourceName).toBe(before[2]);
    // By the keyboard: Ctrl+Shift+↑ sends the selected row to the top.
    const now = await firstRows(page, 3);
    await page.locator('[role="row"]').nth(2).click();
    await page.keyboard.press('Control+Shift+ArrowUp');
    await expect.poll(() => firstRows(page, 3), PATIENT).toEqual([now[2], now[0], now[1]]);
    const top = await e2e.app.host.api.listSources({ filter: {}, offset: 0, limit: 1 });
    expect(top.sources[0]?.sourceName).toBe(now[2]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('at 200% zoom the rows and their Move buttons still fit', async () => {
    await e2e.inPage({ zoom: 2, width: 900, height: 700 }, async (page) => {
      await page.locator('[role="row"]').nth(2).waitFor();
      await page.locator('[role="row"]').nth(1).click();
      await page.getByRole('button', { name: 'Move to top' }).waitFor();
      await screenshot(page, 'queue-dragged-zoom200');
    });
  });
});

describe('when the queue is done, presets and spending', () => {
  const acted: string[] = [];
  const recorder: WhenDoneExecutor = {
    sleep: async () => void acted.push('sleep'),
    shutDown: async () => void acted.push('shutdown'),
    run: async () => ({ exitCode: 0, failure: null }),
  };
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 1, balance: 100_000 },
    engine: { whenDoneExecutor: recorder },
    ready: addButtonShown,
  });

  it('shut down waits for the whole batch, then counts down, and one click cancels it', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    await page.getByRole('button', { name: /^When done: nothing/ }).click();
    await page.getByRole('menu').waitFor();
    await bothThemes(page, 'when-done-menu');
    await page.getByRole('menuitemradio', { name: /Shut down/ }).click();
    await page.getByRole('button', { name: /^When done: shut down/ }).waitFor();

    await api.add({
      inputs: [videoMp4(1, 'first of two.mp4'), videoMp4(3, 'second of two.mp4')],
      to: ['es'],
    });
    const countdown = page.getByRole('alertdialog');
    await countdown.waitFor(PATIENT);
    // It came only once every job of the batch had ended, never after the first.
    expect((await allJobs(api)).every((j) => isTerminal(j.state))).toBe(true);
    await expect
      .poll(async () => (await countdown.innerText()).includes('Shutting down in'), PATIENT)
      .toBe(true);
    await bothThemes(page, 'when-done-countdown');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel shut down' }).click();
    await countdown.waitFor({ state: 'detached' });
    expect(acted).toEqual([]);
    expect((await api.whenDone()).choice).toEqual({ action: 'nothing' });
  });

  it('saves the Add sheet as a named preset, with what it sends, and picks it again', async () => {
    const { page } = e2e.view;
    await e2e.app.host.api.setSettings({ defaults: { languages: ['es', 'fr'], studio: true } });
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.getByRole('radio', { name: /The whole file/ }).check();
    await page.getByRole('button', { name: 'Save as preset…' }).click();
    await page.getByRole('textbox', { name: 'Preset name' }).fill('ES+FR studio');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () => (await e2e.app.host.api.listPresets()).presets.map((p) => [p.name, p.options.send]),
        PATIENT,
      )
      .toEqual([['ES+FR studio', 'file']]);
    await page.getByRole('button', { name: 'Update “ES+FR studio”' }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });

    // A new sheet sends the sound alone; the preset picked brings back the whole file.
    await page.getByRole('button', { name: '+ Add files' }).click();
    const whole = sheet.getByRole('radio', { name: /The whole file/ });
    await sheet.getByRole('radio', { name: /Only the sound/ }).check();
    await sheet.getByRole('combobox', { name: 'Preset' }).selectOption('ES+FR studio');
    await expect.poll(() => whole.isChecked(), PATIENT).toBe(true);
    await sheet.getByRole('combobox', { name: 'Preset' }).focus();
    await bothThemes(page, 'preset-picker');
    await whole.scrollIntoViewIfNeeded();
    await bothThemes(page, 'preset-picker-send');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });
  });

  it('at 200% zoom the preset picker and the When done menu still fit', async () => {
    await e2e.inPage({ zoom: 2, width: 900, height: 700 }, async (page) => {
      await page.getByRole('button', { name: '+ Add files' }).click();
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      await sheet.getByRole('combobox', { name: 'Preset' }).selectOption('ES+FR studio');
      await expect
        .poll(() => sheet.getByRole('radio', { name: /The whole file/ }).isChecked(), PATIENT)
        .toBe(true);
      await screenshot(page, 'preset-picker-zoom200');
      await sheet.getByRole('radio', { name: /The whole file/ }).scrollIntoViewIfNeeded();
      await screenshot(page, 'preset-picker-send-zoom200');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await sheet.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: /^When done:/ }).click();
      await page.getByRole('menu').waitFor();
      await screenshot(page, 'when-done-menu-zoom200');
      await page.keyboard.press('Escape');
    });
  });

  it('Spending: a table, a chart per day, and a CSV that adds up to the ledger', async () => {
    const { page } = e2e.view;
    await page.getByRole('navigation').getByRole('button', { name: 'Spending' }).click();
    await page.getByRole('heading', { name: 'Spending' }).waitFor();
    await page.getByRole('cell', { name: 'second of two.mp4' }).waitFor(PATIENT);
    await bothThemes(page, 'spending');
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV…' }).click(),
    ]);
    const rows = parse(readFileSync(await saved(download), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    const ledger = e2e.app.sb.state.ledger.reduce((n, c) => n + c.seconds, 0);
    expect(rows.reduce((n, r) => n + Number(r.credits), 0)).toBe(ledger);
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isTerminal } from '../../shared/contract/jobs';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, bothThemes, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { videoMp4 } from '../helpers/media';

/**
 * Which of its three regions a `<meter>` draws its value in, as the HTML standard ranks them against its
 * low, high and optimum: Chromium paints them green, amber and red (and the app's colours in dark).
 */
async function meterRegion(meter: Locator): Promise<'good' | 'warning' | 'bad'> {
  const a = await meter.evaluate((el) => {
    const m = el as HTMLMeterElement;
    return { value: m.value, low: m.low, high: m.high, optimum: m.optimum };
  });
  const region = (v: number) => (v < a.low ? 0 : v > a.high ? 2 : 1);
  const distance = Math.abs(region(a.value) - region(a.optimum));
  return (['good', 'warning', 'bad'] as const)[distance] ?? 'bad';
}

/** A person's drag: press on `from`, move in steps onto `to`, let go. */
async function dragWithMouse(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('a row to drag is not on screen');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 8, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 3, { steps: 12 });
  await page.mouse.up();
}

describe('the monthly budget in the window, and rows that keep their place', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1, balance: 100_000 }, ready: addButtonShown });

  it('the confirm past the budget says spent, this batch and budget, and where to raise it', async () => {
    const { page } = e2e.view;
    await e2e.app.host.api.setSettings({ monthlyBudget: 5 });
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await page.setInputFiles('[data-testid=file-input]', videoMp4(3, 'past budget ñ.mp4'));
    const box = page.getByRole('combobox', { name: /Dub into/ });
    for (const name of ['Spanish', 'French']) {
      await box.fill(name);
      await box.press('Enter');
    }
    await box.press('Tab');
    await sheet.getByText(/Past the monthly budget/).waitFor(PATIENT);
    await sheet.getByRole('button', { name: /Add anyway/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Add past your monthly budget?' });
    await confirm.waitFor();
    const body = await confirm.innerText();
    expect(body).not.toContain('Add credits');
    expect(body).toMatch(
      /needs about \d+ cr, past the monthly budget of 5 cr: with the 0 cr spent this month/,
    );
    expect(body).toMatch(/that is \d+ cr, \d+ cr over/);
    expect(body).toContain('Settings → Spending');
    await bothThemes(page, 'budget-confirm');
    await confirm.getByRole('button', { name: 'Add anyway' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await allJobs(e2e.app.host.api)).every((j) => isTerminal(j.state)), PATIENT)
      .toBe(true);
  });

  it("the Spending view's budget bar reads bad past the budget and warns near it, light and dark", async () => {
    const { page } = e2e.view;
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Spending' }).click();
    await page.getByRole('cell', { name: 'past budget ñ.mp4' }).first().waitFor(PATIENT);
    const meter = page.getByRole('meter', { name: 'Budget used' });
    await expect.poll(() => meterRegion(meter), PATIENT).toBe('bad');
    await bothThemes(page, 'spending-over-budget');
    expect(await seriousViolations(page)).toEqual([]);

    // Near the budget (spent is 90% of it): a warning, not yet bad.
    const spent = (await e2e.app.host.api.spending({ since: null })).rows.reduce((n, r) => n + r.credits, 0);
    await e2e.app.host.api.setSettings({ monthlyBudget: Math.ceil(spent / 0.9) });
    await nav.getByRole('button', { name: /^All/ }).click();
    await nav.getByRole('button', { name: 'Spending' }).click();
    await expect.poll(() => meterRegion(meter), PATIENT).toBe('warning');
    await bothThemes(page, 'spending-near-budget');
    // Far from it: good.
    await e2e.app.host.api.setSettings({ monthlyBudget: spent * 10 });
    await nav.getByRole('button', { name: /^All/ }).click();
    await nav.getByRole('button', { name: 'Spending' }).click();
    await expect.poll(() => meterRegion(meter), PATIENT).toBe('good');

    await e2e.app.host.api.setSettings({ monthlyBudget: 5 });
    await e2e.inPage({ zoom: 2, width: 900, height: 700 }, async (page) => {
      await page.getByRole('navigation').getByRole('button', { name: 'Spending' }).click();
      const big = page.getByRole('meter', { name: 'Budget used' });
      await expect.poll(() => meterRegion(big), PATIENT).toBe('bad');
      await screenshot(page, 'spending-over-budget-zoom200');
    });
    await nav.getByRole('button', { name: /^All/ }).click();
  });

  it('Settings keeps the two caps and the budget typed into its fields', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Upload cap (MiB/s, all uploads)').fill('2.5');
    await page.getByLabel('Download cap (MiB/s)').fill('20');
    await page.getByLabel('Monthly budget (credits)').fill('1200');
    await page.getByRole('button', { name: 'Save line and spending' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor(PATIENT);
    const saved = await api.getSettings();
    expect([saved.maxUploadRate, saved.maxDownloadRate, saved.monthlyBudget]).toEqual([
      2.5 * 1024 * 1024,
      20 * 1024 * 1024,
      1200,
    ]);
    // Emptied, a cap is no cap.
    await page.getByLabel('Download cap (MiB/s)').fill('');
    await page.getByRole('button', { name: 'Save line and spending' }).click();
    await expect.poll(async () => (await api.getSettings()).maxDownloadRate, PATIENT).toBe(null);
    await api.setSettings({ maxUploadRate: null, monthlyBudget: null });
    await nav.getByRole('button', { name: /^All/ }).click();
  });

  it('a finished row dragged onto the queue with the mouse stays, and the window says why', async () => {
    const { page } = e2e.view;
    const { api } = e2e.app.host;
    await api.setSettings({ monthlyBudget: null });
    await api.pauseQueue();
    await api.add({ inputs: [videoMp4(1, 'waiting one.mp4'), videoMp4(2, 'waiting two.mp4')], to: ['es'] });
    const row = (name: string) => page.getByRole('row', { name: new RegExp(name) });
    await row('waiting two\\.mp4').waitFor(PATIENT);
    const finished = row('past budget ñ\\.mp4');
    const before = (await api.listSources({ filter: {}, offset: 0, limit: 10 })).sources.map(
      (s) => s.sourceName,
    );
    expect(before[0]).toBe('past budget ñ.mp4');

    await dragWithMouse(page, finished, row('waiting two\\.mp4'));
    await page.getByRole('status').getByText('Finished jobs keep their place').waitFor(PATIENT);
    const after = (await api.listSources({ filter: {}, offset: 0, limit: 10 })).sources.map(
      (s) => s.sourceName,
    );
    expect(after).toEqual(before);
    // The row says so before it is tried: no grab cursor over it, unlike a row that can move.
    const cursor = (l: Locator) => l.locator('.cell-name').evaluate((el) => getComputedStyle(el).cursor);
    expect(await cursor(finished)).not.toBe('grab');
    expect(await cursor(row('waiting two\\.mp4'))).toBe('grab');
    await bothThemes(page, 'queue-finished-drag');

    // A row that can move still does, by the same mouse.
    await dragWithMouse(page, row('waiting two\\.mp4'), row('waiting one\\.mp4'));
    await expect
      .poll(
        async () =>
          (await api.listSources({ filter: {}, offset: 0, limit: 10 })).sources.map((s) => s.sourceName),
        PATIENT,
      )
      .toEqual(['past budget ñ.mp4', 'waiting two.mp4', 'waiting one.mp4']);
    await api.resumeQueue();
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

/**
 * A laptop's 1400 x 900 screen at 200% zoom: 700 x 450 CSS pixels. Someone zoomed in to read must still see
 * and work their queue: the header, the paused banner, the view filters and the toolbar may not take the
 * whole height and leave one row of it.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bothThemes, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { seedQueue } from '../helpers/seed';

const ZOOMED = { width: 700, height: 450, zoom: 2 };

/** The job rows drawn whole inside the grid's box, and the grid's box whole inside the window. */
function rowsWhollyShown(page: Page): Promise<number> {
  return page.getByRole('grid').evaluate((grid) => {
    const g = grid.getBoundingClientRect();
    if (g.top < 0 || g.bottom > innerHeight + 0.5) return 0;
    const rows = [...grid.querySelectorAll<HTMLElement>('[role=row][aria-rowindex]:not(.row-loading)')];
    return rows.filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= g.top - 0.5 && r.bottom <= g.bottom + 0.5 && r.height > 0;
    }).length;
  });
}

/** Whole inside the window and not under anything else: a person sees it and can click it. */
function inSight(target: Locator): Promise<string | null> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'not drawn';
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      return `outside the window: ${JSON.stringify(r)}`;
    // An inline run of text over several lines: the middle of its first line.
    const line = el.getClientRects()[0] ?? r;
    const onTop = document.elementFromPoint(line.left + line.width / 2, line.top + line.height / 2);
    return onTop && (onTop === el || el.contains(onTop))
      ? null
      : `covered by ${onTop?.outerHTML.slice(0, 80)}`;
  });
}

describe('a paused queue of 300 jobs at 200% zoom', () => {
  const e2e = openedApp({
    work: false,
    // The jobs are the user's own, on the service this app uses: rows of a name and three chips, as at home.
    prepare: (home, sb) => void seedQueue(home, 100, ['es', 'fr', 'de'], sb.baseUrl),
    started: (app) => app.host.api.pauseQueue(),
    page: ZOOMED,
    ready: (page) => page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor(PATIENT),
  });

  it('gives the queue most of the window: at least four whole rows', async () => {
    const { page } = e2e.view;
    await page
      .getByRole('alert')
      .or(page.getByRole('status'))
      .getByText(/paused/)
      .first()
      .waitFor(PATIENT);
    await bothThemes(page, 'zoomed-queue-paused-700x450');
    await expect.poll(() => rowsWhollyShown(page), PATIENT).toBeGreaterThanOrEqual(4);
  });

  it('keeps Resume and the search box in sight, and nothing wider than the window', async () => {
    const { page } = e2e.view;
    expect(await inSight(page.getByRole('button', { name: 'Resume queue' }).first())).toBeNull();
    expect(await inSight(page.getByRole('searchbox', { name: 'Search files by name' }))).toBeNull();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  });

  it('keeps the whole explanation of the pause a keypress away', async () => {
    const { page } = e2e.view;
    const more = page.getByText('Dubs already started keep being processed').locator('visible=true');
    expect(await more.count()).toBe(0);
    const why = page.getByText('Why?', { exact: true });
    await why.focus();
    await page.keyboard.press('Enter');
    await more.waitFor(PATIENT);
    expect(await inSight(more)).toBeNull();
    await screenshot(page, 'zoomed-queue-why-open-700x450-light');
    await page.keyboard.press('Enter');
    await expect.poll(() => more.count(), PATIENT).toBe(0);
  });

  it('keeps every view filter, Watched folders, Spending and Settings in view', async () => {
    const { page } = e2e.view;
    for (const name of [/^All/, /^History/, /^Canceled/, /^Watched folders/, /^Spending/, /^Settings/])
      expect(await inSight(page.getByRole('button', { name }).first()), String(name)).toBeNull();
  });

  it('looks as before in a roomy window (1280 x 800), the whole explanation in the banner', async () => {
    await e2e.inPage({ width: 1280, height: 800 }, async (page, roomy) => {
      await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor(PATIENT);
      expect(
        await inSight(page.getByText('Dubs already started keep being processed').locator('visible=true')),
      ).toBeNull();
      expect(await page.getByText('Why?', { exact: true }).isVisible()).toBe(false);
      await bothThemes(page, 'zoomed-queue-paused-1280x800');
      expect(roomy.troubles).toEqual({ console: [], requests: [] });
    });
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { problemGroups } from '../../renderer/src/components/JobProblem';
import { estimateRowHeight } from '../../renderer/src/components/SourceRowView';
import { seedQueue } from '../helpers/seed';

const SOURCES = 3334;
const LANGUAGES = ['es', 'fr', 'de'];

describe('10,000 jobs already in the queue', () => {
  let jobs = 0;

  const e2e = openedApp({ work: false, prepare: (home) => (jobs = seedQueue(home, SOURCES, LANGUAGES)) });

  it('renders a page of rows, counts every job, and keeps the DOM small', async () => {
    const { page } = e2e.view;
    expect(jobs).toBe(10_002);
    const grid = page.getByRole('grid');
    await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(SOURCES));
    await expect
      .poll(() => page.getByRole('button', { name: /^All/ }).textContent(), PATIENT)
      .toMatch(/10,002$/);
    expect(await page.getByRole('row').count()).toBeLessThan(80);
  });

  it('draws each row at the height it was estimated at', async () => {
    const { page } = e2e.view;
    const grid = page.getByRole('grid');
    await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor();
    // A row measured at another height than estimated re-lays the whole list out (its length and every slot
    // after it): on every frame of a scroll through rows never shown.
    await grid.evaluate((el) => (el.scrollTop = Math.floor(el.scrollHeight / 2)));
    await expect.poll(() => grid.locator('.row-loading').count(), PATIENT).toBe(0);
    const drawn = await grid.evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('[data-index]')].map((slot) => ({
        index: Number(slot.dataset.index),
        px: slot.getBoundingClientRect().height,
      })),
    );
    const first = Math.min(...drawn.map((d) => d.index));
    const rows = (await e2e.app.host.api.listSources({ offset: first, limit: drawn.length })).sources;
    expect(drawn.length).toBeGreaterThan(5);
    expect(rows.some((r) => problemGroups(r.jobs).length > 0)).toBe(true); // these rows wait: one line each
    for (const d of drawn) expect({ ...d, px: estimateRowHeight(rows[d.index - first] ?? null) }).toEqual(d);
  });

  it('scrolls to the end with the keyboard and to the middle with the wheel, loading the rows it shows', async () => {
    const { page } = e2e.view;
    const grid = page.getByRole('grid');
    await grid.focus();
    await grid.press('End');
    const last = page.locator(`[role=row][aria-rowindex="${SOURCES}"]`);
    await last.getByText(`clip-${String(SOURCES - 1).padStart(5, '0')}.mp4`).waitFor();
    // Its chips come with it, exactly one each (polled: the row may be drawn again as its page arrives).
    await expect
      .poll(() => last.getByRole('button', { name: /^German, de: waiting/ }).count(), PATIENT)
      .toBe(1);
    await expect
      .poll(
        () => last.evaluate((row) => Math.floor(row.getBoundingClientRect().bottom) <= innerHeight),
        PATIENT,
      )
      .toBe(true);

    await grid.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await page.mouse.move(600, 400);
    await page.mouse.wheel(0, 400);
    const middle = page
      .locator('[role=row][aria-rowindex]:not(.row-loading)')
      .filter({ hasText: /clip-01[5-7]\d\d/ });
    await middle.first().waitFor();
    expect(await page.getByRole('row').count()).toBeLessThan(80);
    await expect.poll(() => grid.locator('.row-loading').count(), PATIENT).toBe(0);
    await screenshot(page, 'big-queue-middle-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'big-queue-middle-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await grid.press('Home');
    await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor();
  });

  it('finds a file by name among them all', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+f');
    await page.getByRole('searchbox', { name: 'Search files by name' }).fill('clip-02346');
    await expect.poll(() => page.getByRole('grid').getAttribute('aria-rowcount'), PATIENT).toBe('1');
    await page.getByRole('row', { name: /clip-02346\.mp4/ }).waitFor();
    await page.getByRole('searchbox', { name: 'Search files by name' }).fill('');
    await expect
      .poll(() => page.getByRole('grid').getAttribute('aria-rowcount'), PATIENT)
      .toBe(String(SOURCES));
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

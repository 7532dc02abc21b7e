import { describe, expect, it } from 'vitest';
import { appInBrowser, PATIENT } from '../helpers/browser-app';
import { seedQueue } from '../helpers/seed';

const SOURCES = 3334;
const LANGUAGES = ['es', 'fr', 'de'];

describe('10,000 jobs already in the queue', () => {
  let jobs = 0;

  const e2e = appInBrowser({ work: false, prepare: (home) => (jobs = seedQueue(home, SOURCES, LANGUAGES)) });

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

  it('draws rows at the height they were estimated at: scrolling through new rows leaves the list its length', async () => {
    const { page } = e2e.view;
    const grid = page.getByRole('grid');
    await page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor();
    // A row measured at another height than estimated re-lays the whole list out (its length and every slot
    // after it): on every frame of a scroll through rows never shown.
    const shown = () =>
      grid.evaluate((el) => ({
        length: el.scrollHeight,
        loading: el.querySelectorAll('.row-loading').length,
        problems: el.querySelectorAll('.job-problem').length,
      }));
    await grid.evaluate((el) => (el.scrollTop = Math.floor(el.scrollHeight / 2)));
    await expect.poll(async () => (await shown()).loading, PATIENT).toBe(0);
    const before = await shown();
    for (let screen = 0; screen < 5; screen++) {
      await grid.evaluate((el) => (el.scrollTop += el.clientHeight));
      await expect.poll(async () => (await shown()).loading, PATIENT).toBe(0);
    }
    const after = await shown();
    expect(after.problems).toBeGreaterThan(0); // these rows wait for a service nobody runs: one line each
    expect(after.length).toBe(before.length);
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

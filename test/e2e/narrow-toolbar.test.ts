/**
 * A window 400 CSS pixels wide (a browser beside an editor, or a phone held upright): the queue's toolbar,
 * When done, Retry failed and Clear done, must stay in sight, wrapping to a second line rather than running
 * past the window's edge, where "Clear done…" was cut to "Clear don".
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bothThemes, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { seedQueue } from '../helpers/seed';

/** Whole inside the window and inside every box that clips it: null when a person sees all of it. */
function cutOff(target: Locator): Promise<string | null> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'not drawn';
    if (r.left < 0 || r.right > innerWidth + 0.5) return `past the window's edge: ${r.left}..${r.right}`;
    for (let box = el.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5)
        return `cut by .${box.className}: ${r.right} > ${b.right}`;
    }
    return null;
  });
}

describe('the queue in a 400-pixel-wide window', () => {
  const e2e = openedApp({
    work: false,
    prepare: (home, sb) => void seedQueue(home, 20, ['es', 'fr'], sb.baseUrl),
    page: { width: 400, height: 800 },
    ready: (page) => page.getByRole('row', { name: /clip-00001\.mp4/ }).waitFor(PATIENT),
  });

  it('keeps the toolbar’s buttons whole and in sight', async () => {
    const { page } = e2e.view;
    await bothThemes(page, 'narrow-queue-400x800');
    for (const name of [/^When done/, /^Retry failed/, /^Clear done/])
      expect(await cutOff(page.getByRole('button', { name }).first()), String(name)).toBeNull();
    expect(await cutOff(page.getByRole('searchbox', { name: 'Search files by name' }))).toBeNull();
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

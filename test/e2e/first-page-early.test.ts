/**
 * The queue's first page is asked for while the app's code is still on its way: the page's entry is small
 * and sends its first calls itself; React, the schemas and the screens come in a chunk of their own. Here
 * the chunk holding React is held back until the first page has been asked for: a page that asks only once
 * React runs would wait for ever, and the app would never show.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { seedQueue } from '../helpers/seed';

/** React DOM's production build names its devtools hook: only the chunk holding React has it. */
const REACT_MARK = '__REACT_DEVTOOLS_GLOBAL_HOOK__';

class ReactHeldUntilFirstPage {
  /** listSources requests the page made, and how many of them before React's chunk was let through. */
  firstPageAsks = 0;
  asksBeforeReact: number | null = null;
  private asked: () => void = () => {};
  private readonly firstAsk = new Promise<void>((resolve) => (this.asked = resolve));

  async install(context: BrowserContext): Promise<void> {
    await context.route('**/api/listSources', async (route) => {
      this.firstPageAsks += 1;
      this.asked();
      await route.continue();
    });
    await context.route('**/assets/*.js', async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes(REACT_MARK)) {
        await this.firstAsk;
        this.asksBeforeReact = this.firstPageAsks;
      }
      await route.fulfill({ response, body });
    });
  }
}

describe("the queue's first page, before the app's code", () => {
  const held = new ReactHeldUntilFirstPage();
  const e2e = openedApp({
    work: false,
    prepare: (home) => void seedQueue(home, 30, ['es', 'fr']),
    page: { beforeOpen: (context) => held.install(context) },
  });

  it('is asked for before React arrives, and the queue shows it', async () => {
    const { page } = e2e.view;
    await expect.poll(() => held.asksBeforeReact, PATIENT).toBeGreaterThan(0);
    await addButtonShown(page);
    await page
      .getByRole('row', { name: /clip-00001\.mp4/ })
      .first()
      .waitFor(PATIENT);
  });
});

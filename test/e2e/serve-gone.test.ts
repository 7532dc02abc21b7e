/**
 * A tab whose `dubdesk serve` stopped (Ctrl+C in its terminal) must say so by itself: the app stays on
 * screen with its last numbers, and a restarted serve takes a new port the old tab never learns of.
 * The browser runs in a time zone of its own (a quarter-hour offset) and a 24-hour locale: the time the
 * banner gives is the browser's, not the server's.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRINTED_CODE_TTL_MS } from '../../electron/web/session-codes';
import { bothThemes, PATIENT, screenshot, ZOOM_200, type Viewing } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';
import { shown } from '../helpers/serve-cli';

const ZONE = 'Asia/Kathmandu';
const LOCALE = 'en-GB';
const WORLD = { timezoneId: ZONE, locale: LOCALE };

/** The banner saying serve does not answer (whatever else is on the page). */
const goneBanner = (page: Page): Locator => page.locator('.banner').filter({ hasText: 'is not answering' });

/** Every HH:MM the browser's clock can have read between `from` and `to`. */
function clockReadings(from: number, to: number): string[] {
  const format = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', timeZone: ZONE });
  const readings = new Set<string>();
  for (let t = from - (from % 60_000); t <= to; t += 60_000) readings.add(format.format(t));
  return [...readings];
}

describe('a tab whose serve was stopped', () => {
  const e2e = openedApp({
    work: false,
    started: (app) => app.host.api.add({ inputs: [videoMp4(2, 'interview final.mp4')], to: ['es', 'fr'] }),
    page: WORLD,
  });
  let zoomed: Viewing;
  beforeAll(async () => {
    zoomed = await e2e.open({ ...WORLD, ...ZOOM_200, colorScheme: 'dark' });
  });

  it('says at once, without a click, that nothing is live, since when, and how to start it again', async () => {
    const { page } = e2e.view;
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    await expect.poll(() => shown(zoomed.page), PATIENT).toBe('the app');
    await page.getByRole('row', { name: /interview final\.mp4/ }).waitFor(PATIENT);
    expect(await goneBanner(page).count()).toBe(0);
    const stoppedFrom = Date.now();
    await e2e.app.server.close();
    await goneBanner(page).waitFor(PATIENT);
    const seenAt = Date.now();
    const text = (await goneBanner(page).textContent()) ?? '';
    expect(text).toContain('npx dubdesk serve');
    expect(text).toContain('new address');
    const times = clockReadings(stoppedFrom, seenAt).map((hhmm) => `from ${hhmm}`);
    expect(
      times.some((t) => text.includes(t)),
      `${text} names one of ${times.join(', ')}`,
    ).toBe(true);
    // The last numbers stay on screen beneath it.
    await page.getByRole('row', { name: /interview final\.mp4/ }).waitFor(PATIENT);
    await bothThemes(page, 'serve-gone');
    await goneBanner(zoomed.page).waitFor(PATIENT);
    await screenshot(zoomed.page, 'serve-gone-zoom-200-dark');
  });

  it('drops the banner once a serve answers on the port again, and its printed address, pasted, shows the app', async () => {
    const { page } = e2e.view;
    await goneBanner(page).waitFor(PATIENT);
    const again = await e2e.serveAgain();
    // A restarted serve forgets every session: the tab says so, and how to get a new address.
    await expect.poll(() => shown(page), PATIENT).toMatch(/^Dubdesk stopped, or was started again/);
    expect(await goneBanner(page).count()).toBe(0);
    // Pasted into this tab's bar: the same origin, so only the fragment changes.
    await page.goto(again.newAddress(PRINTED_CODE_TTL_MS));
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    expect(await goneBanner(page).count()).toBe(0);
    await page.getByRole('row', { name: /interview final\.mp4/ }).waitFor(PATIENT);
  });
});

describe('a tab whose way to serve broke and came back (an `ssh -L` tunnel dropped, serve kept running)', () => {
  let cut = false;
  const e2e = openedApp({
    work: false,
    page: {
      // The tunnel: while it is cut, nothing reaches serve (the connection is refused).
      beforeOpen: async (context) => {
        await context.route(`${e2e.app.server.origin}/**`, (route) =>
          cut ? route.abort('connectionrefused') : route.continue(),
        );
      },
    },
  });

  it('shows the banner while cut, and drops it by itself, live again, once serve answers', async () => {
    const { page } = e2e.view;
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    cut = true;
    e2e.app.server.events.closeAll();
    await goneBanner(page).waitFor(PATIENT);
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'added-while-cut.mp4')], to: ['de'] });
    cut = false;
    await goneBanner(page).waitFor({ state: 'detached', ...PATIENT });
    await page.getByRole('row', { name: /added-while-cut\.mp4/ }).waitFor(PATIENT);
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
  });
});

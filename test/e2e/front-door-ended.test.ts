import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { shown } from '../helpers/serve-cli';

describe('a tab whose serve was started again', () => {
  const e2e = openedApp({ work: false });

  it('says its session ended and how to get a new address, instead of an app of zeros and errors', async () => {
    const { page } = e2e.view;
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    // `serve` stops and starts again on the same port (a new session for everyone, the old ones forgotten).
    await e2e.app.server.close();
    await e2e.serveAgain();
    // The page's event stream reconnects, is refused, and the page says why.
    await expect.poll(() => shown(page), PATIENT).toMatch(/^Dubdesk stopped, or was started again/);
    expect(await page.getByText('npx dubdesk serve --link').count()).toBe(1);
    // A laptop's short window: the card fits, and a page with nothing more to show has no scroll bar.
    await page.setViewportSize({ width: 1000, height: 600 });
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'front-door-session-ended');
  });
});

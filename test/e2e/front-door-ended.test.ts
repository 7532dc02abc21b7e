import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type DubdeskServer } from '../../electron/web/server';
import {
  closeBrowser,
  openPage,
  PATIENT,
  screenshot,
  startApp,
  type RunningApp,
  type Viewing,
} from '../helpers/browser-app';
import { builtRenderer } from '../helpers/renderer-build';
import { shown } from '../helpers/serve-cli';

describe('a tab whose serve was started again', () => {
  let app: RunningApp;
  let view: Viewing;
  let again: DubdeskServer | undefined;

  beforeAll(async () => {
    app = await startApp({ work: false });
    view = await openPage(app);
  });
  afterAll(async () => {
    await view?.close();
    await closeBrowser();
    await again?.close();
    await app?.close();
  });

  it('says its session ended and how to get a new address, instead of an app of zeros and errors', async () => {
    const { page } = view;
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    // `serve` stops and starts again on the same port (a new session for everyone, the old ones forgotten).
    const port = app.server.port;
    await app.server.close();
    again = await startServer({ engine: app.host, port, rendererDir: await builtRenderer() });
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

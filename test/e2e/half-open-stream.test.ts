/**
 * A tab whose event stream goes half-open: a laptop slept, the Wi-Fi changed, or a proxy dropped the
 * connection without a word. Nothing says the stream ended; the page just hears nothing more. serve writes a
 * heartbeat on a quiet stream, and a page that hears no byte for 2.5 of them opens another stream and fetches
 * what it shows again, so what changed meanwhile reaches it without a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addButtonShown,
  closeBrowser,
  openPage,
  PATIENT,
  startApp,
  type RunningApp,
  type Viewing,
} from '../helpers/browser-app';
import { envFor, runCli } from '../helpers/cli';
import { videoMp4 } from '../helpers/media';
import { stallingProxy, type StallingProxy } from '../helpers/stalling-proxy';

describe('a tab whose event stream goes half-open', () => {
  let app: RunningApp;
  let proxy: StallingProxy;
  let view: Viewing;

  beforeAll(async () => {
    // A short heartbeat, so the page gives up on a silent stream soon (the default is 15 s).
    app = await startApp({ work: false, server: { heartbeatMs: 300 } });
    proxy = await stallingProxy();
    view = await openPage(app, { proxy: proxy.server });
  });
  afterAll(async () => {
    await view?.close();
    await closeBrowser();
    await proxy?.close();
    await app?.close();
  });

  it('opens another stream and shows files a command line added meanwhile, without a reload', async () => {
    const { page } = view;
    await addButtonShown(page);
    await expect.poll(() => proxy.streams, PATIENT).toBe(1);
    proxy.stallOpenStreams();

    // Another process on the same data folder adds a file while the page's stream passes nothing.
    const added = await runCli(
      ['add', videoMp4(2, 'added-while-half-open.mp4'), '--to', 'es'],
      envFor(app.sb, app.home),
    );
    expect(added.code, added.stderr).toBe(0);
    await page.getByRole('row', { name: /added-while-half-open\.mp4/ }).waitFor(PATIENT);
    // The page gave up on the silent stream itself and opened another.
    expect(proxy.closedByBrowser).toBeGreaterThanOrEqual(1);
    expect(proxy.streams).toBeGreaterThanOrEqual(2);
    // The silent stream the page closed itself is its only failed request.
    expect(view.troubles.console).toEqual([]);
    expect(view.troubles.requests.filter((r) => r !== 'GET /api/events: net::ERR_ABORTED')).toEqual([]);
  });
});

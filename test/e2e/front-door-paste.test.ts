/**
 * The help page a tab without a session shows says: open the address `serve` prints "here". Pasted into
 * that same tab's address bar, the printed address differs from the tab's only in its fragment (`#code=…`),
 * so the browser does not load the page again: the page itself must notice the code and trade it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINTED_CODE_TTL_MS } from '../../electron/web/session-codes';
import { closeBrowser, launch, PATIENT, startApp, type RunningApp } from '../helpers/browser-app';
import { shown } from '../helpers/serve-cli';

/** A tab of a browser with no session of this Dubdesk (a fresh profile), opened on the plain address. */
async function tabWithoutSession(app: RunningApp): Promise<Page> {
  const context = await (await launch()).newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  await page.goto(`${app.server.origin}/`);
  await expect.poll(() => shown(page), PATIENT).toMatch(/^Open Dubdesk with the address it prints/);
  return page;
}

describe('the printed address pasted into the help page’s own tab', () => {
  let app: RunningApp;
  let printed = '';

  beforeAll(async () => {
    app = await startApp({ work: false });
    printed = app.server.newAddress(PRINTED_CODE_TTL_MS);
  });
  afterAll(async () => {
    await closeBrowser();
    await app?.close();
  });

  it('signs the tab in and shows the app, though only the fragment changed', async () => {
    const page = await tabWithoutSession(app);
    // The same origin and path as the tab's: a fragment-only navigation, as a paste into the bar is.
    expect(new URL(printed).origin).toBe(new URL(page.url()).origin);
    await page.goto(printed);
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    // The code is out of the address bar once traded.
    expect(page.url()).not.toContain('code=');
    await page.context().close();
  });

  it('says the address was used already when it was, in another browser’s tab', async () => {
    const page = await tabWithoutSession(app);
    await page.goto(printed);
    await expect.poll(() => shown(page), PATIENT).toMatch(/^This address was used already/);
    expect(page.url()).not.toContain('code=');
    await page.context().close();
  });
});

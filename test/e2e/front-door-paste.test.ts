/**
 * The help page a tab without a session shows says: open the address `serve` prints "here". Pasted into
 * that same tab's address bar, the printed address differs from the tab's only in its fragment (`#code=…`),
 * so the browser does not load the page again: the page itself must notice the code and trade it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PRINTED_CODE_TTL_MS } from '../../electron/web/session-codes';
import { PATIENT, type Viewing } from '../helpers/browser-app';
import { openedApp, type OpenedApp } from '../helpers/opened-app';
import { shown } from '../helpers/serve-cli';

/** A tab of a browser with no session of this Dubdesk (a fresh profile), opened on the plain address. */
async function tabWithoutSession(e2e: OpenedApp): Promise<Viewing> {
  const tab = await e2e.open({ at: `${e2e.app.server.origin}/`, width: 1000, height: 700 });
  await expect.poll(() => shown(tab.page), PATIENT).toMatch(/^Open Dubdesk with the address it prints/);
  return tab;
}

describe('the printed address pasted into the help page’s own tab', () => {
  const e2e = openedApp({ work: false, page: false });
  let printed = '';
  beforeAll(() => {
    printed = e2e.app.server.newAddress(PRINTED_CODE_TTL_MS);
  });

  it('signs the tab in and shows the app, though only the fragment changed', async () => {
    const tab = await tabWithoutSession(e2e);
    const { page } = tab;
    // The same origin and path as the tab's: a fragment-only navigation, as a paste into the bar is.
    expect(new URL(printed).origin).toBe(new URL(page.url()).origin);
    await page.goto(printed);
    await expect.poll(() => shown(page), PATIENT).toBe('the app');
    // The code is out of the address bar once traded.
    expect(page.url()).not.toContain('code=');
    await tab.close();
  });

  it('says the address was used already when it was, in another browser’s tab', async () => {
    const tab = await tabWithoutSession(e2e);
    const { page } = tab;
    await page.goto(printed);
    await expect.poll(() => shown(page), PATIENT).toMatch(/^This address was used already/);
    expect(page.url()).not.toContain('code=');
    await tab.close();
  });
});

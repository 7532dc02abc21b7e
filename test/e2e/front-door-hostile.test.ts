import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runningServers } from '../../electron/web/index';
import { PATIENT } from '../helpers/browser-app';
import { REBOUND_HOST } from '../helpers/chromium-opener';
import { bearer, raw } from '../helpers/serve';
import { servedByCli, shown } from '../helpers/serve-cli';

/** Another site's page on this machine: any page at all, from which its script attacks. */
async function startAttacker(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** What the attacker's script got from `serve`: a status it could read, or the browser's refusal. */
function attack(page: Page, target: string, init: RequestInit): Promise<string> {
  return page.evaluate(
    async ([url, options]) => {
      try {
        const r = await fetch(url, options);
        return r.type === 'opaque' ? 'opaque' : `${r.status} ${await r.text()}`;
      } catch (e) {
        return `refused by the browser: ${String(e)}`;
      }
    },
    [target, init] as const,
  );
}

describe('the front door against another site, in the browser that holds the session', () => {
  const served = servedByCli();
  let attacker: { server: Server; port: number };
  let token = '';
  /** The queue's pause, read by the user's own token: what every attack below tries to change. */
  const paused = async () => {
    const r = await raw(Number(new URL(served.origin).port), 'POST', '/api/totals', {
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: 'null',
    });
    return (r.json() as { value: { paused: unknown } }).value.paused;
  };

  beforeAll(async () => {
    attacker = await startAttacker();
    await vi.waitFor(async () => expect(await shown(served.chrome.first)).toBe('the app'), PATIENT);
    token = (await runningServers(served.home))[0]?.token ?? '';
    expect(await paused()).toBeNull();
  });
  afterAll(async () => {
    attacker?.server.closeAllConnections();
    await new Promise<void>((resolve) => attacker?.server.close(() => resolve()));
  });

  for (const site of ['127.0.0.1', 'localhost']) {
    it(`a page of ${site} on another port cannot drive the queue with the user's session`, async () => {
      const page = await served.chrome.context.newPage();
      await page.goto(`http://${site}:${attacker.port}/`);
      const pause = `${served.origin}/api/pauseQueue`;
      // A JSON call needs CORS, which serve never grants.
      expect(
        await attack(page, pause, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: 'null',
        }),
      ).toMatch(/^refused by the browser/);
      // A "simple" request goes without asking: the browser sends it (with the cookie, on the same site),
      // and only keeps the answer from the page (serve's Cross-Origin-Resource-Policy).
      expect(
        await attack(page, pause, { method: 'POST', mode: 'no-cors', credentials: 'include', body: 'null' }),
      ).toMatch(/^(opaque|refused by the browser)/);
      // A form posted across sites, and a top-level visit of a route behind the session.
      await page.evaluate((action) => {
        const form = Object.assign(document.createElement('form'), { method: 'POST', action });
        form.enctype = 'text/plain';
        document.body.append(form);
        form.submit();
      }, pause);
      await expect.poll(() => shown(page), PATIENT).toMatch(/requests from other sites are refused/);
      await page.goto(`http://${site}:${attacker.port}/`);
      await page.evaluate((to) => void (location.href = to), `${served.origin}/api/uploads-folder`);
      await expect.poll(() => shown(page), PATIENT).toMatch(/requests from other sites are refused/);
      expect(await paused()).toBeNull();
      await page.close();
    });
  }

  it('a name of another site re-pointed at 127.0.0.1 (DNS rebinding) is refused by name', async () => {
    const port = new URL(served.origin).port;
    const rebound = `http://${REBOUND_HOST}:${port}`;
    const page = await served.chrome.context.newPage();
    // The attacker's page, as its own server gave it, before the name was pointed at this machine.
    await page.route(`${rebound}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>rebound</title>' }),
    );
    await page.goto(`${rebound}/`);
    // Its own origin now answers from 127.0.0.1: readable, so it must say nothing but no.
    const r = await attack(page, `${rebound}/api/pauseQueue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'null',
    });
    expect(r).toMatch(/^421 .*answers only to 127\.0\.0\.1/);
    expect(await attack(page, `${rebound}/session`, { method: 'GET' })).toMatch(/^421 /);
    expect(await paused()).toBeNull();
    await page.close();
  });

  it('the user’s own tab still works after all that', async () => {
    const { first } = served.chrome;
    await first.reload();
    await expect.poll(() => shown(first), PATIENT).toBe('the app');
  });
});

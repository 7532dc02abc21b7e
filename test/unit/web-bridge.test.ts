import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FaceBridge } from '../../shared/face';

/** Just enough of a browser window for the bridge's page helpers. */
function fakeWindow(href: string, extra: Record<string, unknown> = {}) {
  const url = new URL(href);
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  const win = {
    location: { hash: url.hash, pathname: url.pathname, search: url.search },
    sessionStorage: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
    },
    history: { state: null, replaceState: (_s: unknown, _t: string, u: string) => void replaced.push(u) },
    ...extra,
  };
  vi.stubGlobal('window', win);
  return { stored, replaced };
}

/**
 * The server side of the code exchange (POST /session): each code in `codes` is traded once for its
 * token, as `dubdesk serve` does; every exchange is recorded.
 */
function fakeExchange(given: Record<string, string>) {
  const sent: string[] = [];
  const codes = new Map(Object.entries(given));
  class FakeXhr {
    status = 0;
    responseText = '';
    private target = '';
    open(method: string, url: string, async: boolean) {
      this.target = `${method} ${url} ${async ? 'async' : 'sync'}`;
    }
    setRequestHeader() {}
    send(body: string) {
      sent.push(`${this.target} ${body}`);
      const { code } = JSON.parse(body) as { code: string };
      const token = codes.get(code);
      codes.delete(code);
      this.status = token ? 200 : 401;
      this.responseText = JSON.stringify(
        token ? { ok: true, value: { token } } : { ok: false, error: { code: 'auth', message: 'used' } },
      );
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('the web bridge in a page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('trades the fragment’s one-time code for the token, keeps it for the tab, and clears the address', async () => {
    const { tokenFromPage } = await import('../../renderer/src/bridge/web-token');
    const sent = fakeExchange({ 'code-1': 'abc_DEF-123' });
    const page = fakeWindow('http://127.0.0.1:5000/?x=1#code=code-1');
    expect(tokenFromPage()).toBe('abc_DEF-123');
    expect(sent).toEqual(['POST /session sync {"code":"code-1"}']);
    expect([...page.stored.values()]).toEqual(['abc_DEF-123']);
    expect(page.replaced).toEqual(['/?x=1']);
    // A reload: the address has no code any more; the tab still has the token.
    (window.location as { hash: string }).hash = '';
    expect(tokenFromPage()).toBe('abc_DEF-123');
    expect(page.replaced).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });

  it('keeps the tab’s token when the address brings a used code (history, a second tab)', async () => {
    const { tokenFromPage } = await import('../../renderer/src/bridge/web-token');
    fakeExchange({});
    const page = fakeWindow('http://127.0.0.1:5000/#code=used');
    expect(tokenFromPage()).toBeNull();
    page.stored.set('dubdesk.serve-token', 'kept');
    (window.location as { hash: string }).hash = '#code=used';
    expect(tokenFromPage()).toBe('kept');
    expect(page.replaced).toEqual(['/', '/']);
  });

  it('has no token when the page was opened without one', async () => {
    const { tokenFromPage } = await import('../../renderer/src/bridge/web-token');
    fakeWindow('http://127.0.0.1:5000/');
    expect(tokenFromPage()).toBeNull();
  });

  it('getBridge picks Electron’s window.dubdesk when present', async () => {
    const electron = { shell: 'electron' } as FaceBridge;
    fakeWindow('http://127.0.0.1:5000/', { dubdesk: electron });
    const { getBridge, bridgeReady } = await import('../../renderer/src/bridge/index');
    expect(getBridge()).toBe(electron);
    await expect(bridgeReady()).resolves.toBeUndefined();
  });

  it('getBridge makes the web client otherwise, once, with the page’s token', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(
        JSON.stringify({
          ok: true,
          value: { token: 'm'.repeat(43), download: 'd'.repeat(43), idleSeconds: 3600 },
        }),
      );
    });
    fakeExchange({ 'page-code': 'page-token' });
    fakeWindow('http://127.0.0.1:5000/#code=page-code');
    const { getBridge, bridgeReady } = await import('../../renderer/src/bridge/index');
    const bridge = getBridge();
    expect(bridge.shell).toBe('web');
    expect(bridge.canReveal).toBe(false);
    expect(getBridge()).toBe(bridge);
    await bridgeReady();
    expect(calls[0]?.[0]).toBe('/api/media-token');
    expect(new Headers(calls[0]?.[1]?.headers).get('authorization')).toBe('Bearer page-token');
    expect(bridge.mediaUrl(7, 'subtitles')).toBe(`/media/7/subtitles?mt=${'m'.repeat(43)}`);
    expect(bridge.downloadUrl?.(7, 0)).toContain(`dt=${'d'.repeat(43)}`);
    expect(await bridge.pickFiles()).toBeNull();
    expect(await bridge.pickFolder()).toBeNull();
    await expect(bridge.showInFolder('/x')).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('the page’s first calls', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('leave before the rest of the page is evaluated, and the start takes each answer instead of asking again', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      sent.push(`${init?.method ?? 'GET'} ${url} ${typeof init?.body === 'string' ? init.body : ''}`);
      expect(new Headers(init?.headers).get('authorization')).toBe('Bearer page-token');
      if (url === '/api/events') return new Response('');
      return new Response(
        JSON.stringify({ ok: false, error: { code: 'internal', message: 'not in this test' } }),
      );
    });
    fakeExchange({ 'page-code': 'page-token' });
    fakeWindow('http://127.0.0.1:5000/#code=page-code');
    await import('../../renderer/src/first-calls');
    const early = [...sent];
    expect(early[0]).toBe('GET /api/events ');
    expect(early[1]).toMatch(/^POST \/api\/listSources \{"filter":\{\},"offset":0,"limit":\d+\}$/);
    expect(early).toHaveLength(7);

    const { getBridge, bridgeReady } = await import('../../renderer/src/bridge/index');
    const { createAppStore } = await import('../../renderer/src/store/index');
    const { connect } = await import('../../renderer/src/store/connect');
    const bridge = answersOf(getBridge());
    const stop = connect(createAppStore(bridge.face), bridge.face);
    // The start asks for what first-calls.ts sent ahead, but the event stream and the media token.
    await vi.waitFor(() => expect(bridge.answers).toHaveLength(early.length - 2));
    await Promise.all([...bridge.answers, bridgeReady()]);
    stop();
    // Every call of the start was one of the early ones, answered once: nothing went out twice.
    expect(sent).toEqual(early);
  });
});

/** The bridge, and a promise for each call made through it that settles once it is answered. */
function answersOf(face: FaceBridge): { face: FaceBridge; answers: Promise<unknown>[] } {
  const answers: Promise<unknown>[] = [];
  const watched = new Proxy(face, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function' || key === 'subscribe') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise) answers.push(result.catch(() => undefined));
        return result;
      };
    },
  });
  return { face: watched, answers };
}

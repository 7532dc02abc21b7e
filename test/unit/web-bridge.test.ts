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
 * The server side of the session routes: each code in `codes` is traded once (POST /session), and sets
 * the session this fake browser then has (GET /session says so). Every request is recorded.
 */
function fakeSessions(codes: string[], opts: { signedIn?: boolean } = {}) {
  const sent: string[] = [];
  const live = new Set(codes);
  let signedIn = opts.signedIn ?? false;
  class FakeXhr {
    status = 0;
    responseText = '';
    private target = '';
    open(method: string, url: string, async: boolean) {
      this.target = `${method} ${url} ${async ? 'async' : 'sync'}`;
    }
    setRequestHeader() {}
    send(body: string | null) {
      sent.push(`${this.target}${body ? ` ${body}` : ''}`);
      if (this.target.startsWith('GET')) {
        this.status = 200;
        this.responseText = JSON.stringify({ ok: true, value: { signedIn } });
        return;
      }
      const { code } = JSON.parse(body ?? '{}') as { code: string };
      const traded = live.delete(code);
      if (traded) signedIn = true;
      this.status = traded ? 200 : 401;
      this.responseText = JSON.stringify(
        traded
          ? { ok: true, value: { token: 'for-scripts' } }
          : { ok: false, error: { code: 'auth', message: 'used' } },
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

  it('trades the fragment’s one-time code for a session once, clears the address, and asks nothing more', async () => {
    const { pageSession } = await import('../../renderer/src/bridge/web-session');
    const sent = fakeSessions(['code-1']);
    const page = fakeWindow('http://127.0.0.1:5000/?x=1#code=code-1');
    expect(pageSession()).toBe('signed-in');
    expect(sent).toEqual(['POST /session sync {"code":"code-1"}']);
    // The token the exchange answers is for scripts: the page keeps nothing (its cookie is the session).
    expect([...page.stored.values()]).toEqual([]);
    expect(page.replaced).toEqual(['/?x=1']);
    expect(pageSession()).toBe('signed-in');
    expect(sent).toHaveLength(1);
  });

  it('with a used code, asks whether this browser has a session already (another tab, a reload)', async () => {
    const { pageSession } = await import('../../renderer/src/bridge/web-session');
    const sent = fakeSessions([], { signedIn: true });
    const page = fakeWindow('http://127.0.0.1:5000/#code=used');
    expect(pageSession()).toBe('signed-in');
    expect(sent).toEqual(['POST /session sync {"code":"used"}', 'GET /session sync']);
    expect(page.replaced).toEqual(['/']);
  });

  it('says the link was used when this browser has no session, and that there was no link without a code', async () => {
    let { pageSession } = await import('../../renderer/src/bridge/web-session');
    fakeSessions([]);
    fakeWindow('http://127.0.0.1:5000/#code=used');
    expect(pageSession()).toBe('used-link');
    vi.resetModules();
    ({ pageSession } = await import('../../renderer/src/bridge/web-session'));
    fakeWindow('http://127.0.0.1:5000/');
    expect(pageSession()).toBe('no-link');
  });

  it('getBridge picks Electron’s window.dubdesk when present', async () => {
    const electron = { shell: 'electron' } as FaceBridge;
    fakeWindow('http://127.0.0.1:5000/', { dubdesk: electron });
    const { getBridge, bridgeReady } = await import('../../renderer/src/bridge/index');
    expect(getBridge()).toBe(electron);
    await expect(bridgeReady()).resolves.toBeUndefined();
  });

  it('getBridge makes the web client otherwise, once, with no token of its own (the cookie goes)', async () => {
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
    fakeSessions(['page-code']);
    fakeWindow('http://127.0.0.1:5000/#code=page-code');
    const { getBridge, bridgeReady } = await import('../../renderer/src/bridge/index');
    const bridge = getBridge();
    expect(bridge.shell).toBe('web');
    expect(bridge.canReveal).toBe(false);
    expect(getBridge()).toBe(bridge);
    await bridgeReady();
    expect(calls[0]?.[0]).toBe('/api/media-token');
    expect(new Headers(calls[0]?.[1]?.headers).get('authorization')).toBeNull();
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

  it('leave before the rest of the page is evaluated, what can change once the stream is open, and the start takes each answer instead of asking again', async () => {
    const sent: string[] = [];
    let streamOpens: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      sent.push(`${init?.method ?? 'GET'} ${url} ${typeof init?.body === 'string' ? init.body : ''}`);
      expect(new Headers(init?.headers).get('authorization')).toBeNull();
      if (url === '/api/events') return new Promise<Response>((resolve) => (streamOpens = resolve));
      return new Response(
        JSON.stringify({ ok: false, error: { code: 'internal', message: 'not in this test' } }),
      );
    });
    fakeSessions(['page-code']);
    fakeWindow('http://127.0.0.1:5000/#code=page-code');
    await import('../../renderer/src/first-calls');
    // What cannot change goes at once; a snapshot taken before the stream is subscribed could miss a change.
    expect(sent).toEqual(['GET /api/events ', 'POST /api/languages null', 'POST /api/media-token null']);
    streamOpens(new Response(''));
    await vi.waitFor(() => expect(sent).toHaveLength(9));
    expect(sent[3]).toMatch(/^POST \/api\/listSources \{"filter":\{\},"offset":0,"limit":\d+\}$/);
    const early = [...sent];

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

/**
 * The desktop app's walls, with `electron` mocked: the window's isolation, the app protocol and its
 * Content Security Policy, and who may call the main process over IPC.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceBridge } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import { CONTENT_SECURITY_POLICY, directives } from '../../../electron/main/csp';
import { RENDERER_URL } from '../../../electron/main/trust';
import { fake, FakeBrowserWindow, FakeWebContents, type FakePage } from '../../helpers/electron-fake';
import { DIST, startApp } from './start-app';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

let desktop: DesktopApp;
let bridge: FaceBridge;
let win: FakeBrowserWindow;

beforeAll(async () => {
  ({ desktop, bridge, win } = await startApp());
});

afterAll(async () => {
  await desktop?.engine.stop(1000);
});

describe('the window', () => {
  it('is isolated, sandboxed, without Node, with web security, and loads the app protocol', () => {
    expect(FakeBrowserWindow.all).toHaveLength(1);
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(prefs.preload).toBe(join(DIST, 'preload.cjs'));
    expect(win.loaded).toEqual(['dubdesk://app/index.html']);
  });

  it('goes nowhere: navigation, redirects, webviews and new windows are denied', () => {
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      win.webContents.emit(name, event, 'https://evil.example/');
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    expect(win.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    // Any other web contents the app makes is locked down the same way.
    const other = new FakeWebContents('about:blank');
    fake.app.emit('web-contents-created', {}, other);
    expect(other.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(fake.shell.external).toEqual([]);
  });

  it('is granted no permission (but the video’s fullscreen on its own page), no download, no network', () => {
    const ask = (permission: string, requestingUrl: string) => {
      const cb = vi.fn();
      fake.session.permissionRequest?.(win.webContents, permission, cb, { requestingUrl });
      return cb.mock.calls[0]?.[0] as boolean;
    };
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'midi',
      'pointerLock',
    ])
      expect(ask(p, RENDERER_URL), p).toBe(false);
    expect(ask('fullscreen', RENDERER_URL)).toBe(true);
    expect(ask('fullscreen', 'https://evil.example/')).toBe(false);
    expect(fake.session.permissionCheck?.(win.webContents, 'media', RENDERER_URL, {})).toBe(false);
    expect(fake.session.devicePermission?.({ deviceType: 'usb' })).toBe(false);
    const download = { preventDefault: vi.fn() };
    fake.session.emitter.emit('will-download', download);
    expect(download.preventDefault).toHaveBeenCalled();
    expect(fake.session.beforeRequest?.filter.urls).toEqual(
      expect.arrayContaining(['http://*/*', 'https://*/*']),
    );
    const cb = vi.fn();
    fake.session.beforeRequest?.fn({ url: 'https://tracker.example/' }, cb);
    expect(cb).toHaveBeenCalledWith({ cancel: true });
  });
});

describe('the app protocol and its Content Security Policy', () => {
  const get = (url: string, method = 'GET') => {
    const handler = fake.protocols.get('dubdesk');
    if (!handler) throw new Error('no app protocol');
    return handler(new Request(url, { method }));
  };

  it('registers both schemes as privileged: standard and secure; the media one streams with CORS', () => {
    const app = fake.privileged.find((s) => s.scheme === 'dubdesk');
    const media = fake.privileged.find((s) => s.scheme === 'dubdesk-media');
    expect(app?.privileges).toMatchObject({ standard: true, secure: true });
    expect(app?.privileges.bypassCSP).toBeUndefined();
    expect(media?.privileges).toMatchObject({
      standard: true,
      secure: true,
      stream: true,
      corsEnabled: true,
    });
  });

  it('serves the renderer with a strict CSP header: scripts from the app only', async () => {
    const res = await get('dubdesk://app/index.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    const d = directives(csp);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('media-src')).toContain('dubdesk-media:');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('dubdesk://app/assets/app.js')).headers.get('content-type')).toMatch(
      /^text\/javascript/,
    );
    expect((await get('dubdesk://app/')).status).toBe(200);
  });

  it('keeps the same rules in the page’s meta tag (web mode has only that)', () => {
    const html = readFileSync(join(__dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const d = directives(meta);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('media-src')).toContain('dubdesk-media:');
    expect(d.get('img-src')).toContain('dubdesk-media:');
    for (const [name, sources] of d) expect(sources, name).not.toContain("'unsafe-eval'");
  });

  it('serves nothing outside the renderer folder', async () => {
    for (const url of [
      'dubdesk://app/%2e%2e/secret.txt',
      'dubdesk://app/..%2fsecret.txt',
      'dubdesk://app/assets',
      'dubdesk://app/missing.js',
      'dubdesk://evil/index.html',
      'dubdesk://app/%00.html',
    ])
      expect((await get(url)).status, url).toBe(404);
    expect((await get('dubdesk://app/index.html', 'POST')).status).toBe(405);
  });
});

describe('IPC', () => {
  const stranger = (url: string, iframe = false): FakePage => {
    const contents = new FakeWebContents(url);
    const frame = contents.mainFrame;
    if (iframe) {
      const child = new (frame.constructor as new (u: string) => typeof frame)(url);
      child.parent = frame;
      return { contents: win.webContents, frame: child };
    }
    return { contents, frame };
  };

  it('answers only the app’s own page in its main frame', async () => {
    await expect(bridge.appInfo()).resolves.toMatchObject({ name: 'Dubdesk', shell: 'electron' });
    const refused = { ok: false, error: { code: 'permission' } };
    for (const who of [
      stranger('https://evil.example/'),
      stranger('dubdesk://app/index.html'), // the right URL in a window that is not ours
      stranger('dubdesk://app/index.html', true), // an iframe of our window
    ]) {
      expect(await fake.invokeAs(who, 'dubdesk:appInfo', undefined)).toMatchObject(refused);
      expect(await fake.invokeAs(who, 'dubdesk-face:show-in-folder', '/etc/passwd')).toMatchObject(refused);
    }
    // Our window after it was somehow taken elsewhere.
    const taken: FakePage = { contents: win.webContents, frame: win.webContents.mainFrame };
    const url = taken.frame.url;
    taken.frame.url = 'https://evil.example/';
    expect(await fake.invokeAs(taken, 'dubdesk:getSettings', undefined)).toMatchObject(refused);
    taken.frame.url = url;
  });

  it('parses every argument in the main process: a bad one never reaches the engine', async () => {
    const calls = () =>
      fake.crossings.filter((c) => c.route === 'main->engine' && c.channel === 'call').length;
    const before = calls();
    await expect(bridge.getJob({ id: -4 })).rejects.toMatchObject({ code: 'bad-request', field: 'id' });
    await expect(bridge.listJobs({ limit: 'all' } as never)).rejects.toMatchObject({ code: 'bad-request' });
    expect(calls()).toBe(before);
  });

  it('exposes the bridge only: no ipcRenderer, no require, no process', () => {
    expect(Object.keys(fake.exposed)).toEqual(['dubdesk']);
    const keys = Object.keys(bridge);
    for (const k of ['ipcRenderer', 'invoke', 'send', 'on', 'require', 'process'])
      expect(keys).not.toContain(k);
    expect(bridge.shell).toBe('electron');
    expect(bridge.canReveal).toBe(true);
  });
});

/**
 * The whole desktop app with `electron` mocked: the real shell (main, preload, IPC, protocols, tray...)
 * around the real engine in its utility process (here in-process) and the built-in sandbox.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceBridge, ShellEvent } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import { CONTENT_SECURITY_POLICY, directives } from '../../../electron/main/csp';
import type { EngineChild } from '../../../electron/main/engine-client';
import { RENDERER_URL } from '../../../electron/main/trust';
import {
  engineChild,
  fake,
  FakeBrowserWindow,
  FakeWebContents,
  type FakePage,
} from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/engine';
import { videoMp4 } from '../../helpers/media';

vi.mock('electron', async () => (await import('../../helpers/electron-fake')).electronModule());

const DIST = '/opt/dubdesk/dist/electron';
let desktop: DesktopApp;
let bridge: FaceBridge;
let win: FakeBrowserWindow;
let rendererDir: string;
const shellEvents: ShellEvent[] = [];

const until = (test: () => boolean | Promise<boolean>) =>
  vi.waitFor(async () => expect(await test()).toBe(true), { timeout: 30_000 });

beforeAll(async () => {
  const { registerSchemes, startDubdesk } = await import('../../../electron/main/app');
  registerSchemes();
  const root = tempDir();
  rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'not for the page');
  const started = await startDubdesk({
    distDir: DIST,
    rendererDir,
    home: tempDir(),
    argv: ['/opt/dubdesk/dubdesk'],
    forkEngine: () => engineChild() as unknown as EngineChild,
    engine: {
      keyStore: 'file',
      sandbox: { pipelineSeconds: 0.2, balance: 1000 },
      backoff: { baseMs: 50, capMs: 400 },
      checkOutputs: true,
    },
  });
  if (!started) throw new Error('the app did not start');
  desktop = started;
  win = FakeBrowserWindow.all[0] as FakeBrowserWindow;
  fake.openPage(RENDERER_URL, win.webContents);
  await import('../../../electron/main/preload');
  bridge = fake.exposed.dubdesk as FaceBridge;
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

describe('a batch in the app', () => {
  let jobId = 0;
  let output = '';
  let source = '';

  it('runs to the end by itself (the engine works the queue continuously)', async () => {
    source = videoMp4(2, 'desktop-batch.mp4');
    const added = await bridge.add({ inputs: [source], to: ['es'], outDir: tempDir() });
    jobId = added.added[0] ?? 0;
    await until(async () => (await bridge.getJob({ id: jobId })).state === 'completed');
    const job = await bridge.getJob({ id: jobId });
    output = job.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
    expect(existsSync(output)).toBe(true);
  });

  it('tells once that the batch finished, clears the taskbar, lets the machine sleep, and says idle in the tray', async () => {
    await until(() => fake.notifications.length > 0);
    expect(fake.notifications.map((n) => [n.title, n.body])).toEqual([['Batch finished', '1 done']]);
    await until(() => win.progress.at(-1)?.value === -1);
    expect(win.progress.some((p) => p.value >= 0)).toBe(true);
    expect(fake.blockers.active.size).toBe(0);
    expect(fake.trays[0]?.tooltip).toBe('Dubdesk — idle');
    // A click on it brings the window to the front.
    win.visible = false;
    fake.notifications[0]?.emitter.emit('click');
    expect(win.visible).toBe(true);
  });

  it('plays the job’s own media through the media protocol, with ranges, and nothing else', async () => {
    const media = fake.protocols.get('dubdesk-media');
    if (!media) throw new Error('no media protocol');
    const full = await media(new Request(bridge.mediaUrl(jobId, 'dub')));
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(full.headers.get('access-control-allow-origin')).toBe('dubdesk://app');
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(bytes.equals(readFileSync(output))).toBe(true);
    const part = await media(
      new Request(bridge.mediaUrl(jobId, 'dub'), { headers: { Range: 'bytes=10-19' } }),
    );
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    const bad = await media(
      new Request(bridge.mediaUrl(jobId, 'dub'), { headers: { Range: `bytes=${bytes.length}-` } }),
    );
    expect(bad.status).toBe(416);
    const subs = await media(new Request(bridge.mediaUrl(jobId, 'subtitles')));
    expect(subs.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect((await subs.text()).startsWith('WEBVTT')).toBe(true);
    const original = await media(new Request(bridge.mediaUrl(jobId, 'original')));
    expect(Buffer.from(await original.arrayBuffer()).equals(readFileSync(source))).toBe(true);
    for (const url of [
      'dubdesk-media://job/999999/dub',
      `dubdesk-media://job/${jobId}/poster`,
      `dubdesk-media://job/${jobId}/dub?path=/etc/passwd`,
      'dubdesk-media://job/%2e%2e/etc/passwd',
    ])
      expect((await media(new Request(url))).status, url).toBe(404);
  });

  it('reveals and opens the job’s outputs and sources, and no other path', async () => {
    await bridge.showInFolder(output);
    await bridge.openPath(output);
    await bridge.openPath(source);
    expect(fake.shell.shown).toEqual([output]);
    expect(fake.shell.opened).toEqual([output, source]);
    for (const path of [
      '/etc/passwd',
      join(rendererDir, 'index.html'),
      'relative/clip.mp4',
      `${output}.part`,
    ])
      await expect(bridge.openPath(path), path).rejects.toMatchObject({ code: 'not-found' });
    await expect(bridge.showInFolder(42 as never)).rejects.toMatchObject({ code: 'bad-request' });
    expect(fake.shell.opened).toHaveLength(2);
  });
});

describe('files, menus and sleep', () => {
  it('hands files of a second launch to the page, and those that came before it listened', async () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a.mp4'), join(dir, 'b.mov')];
    writeFileSync(a, 'x');
    writeFileSync(b, 'x');
    const sent = vi.spyOn(desktop.shellEvents, 'send');
    fake.app.emit('second-instance', {}, ['/opt/dubdesk/dubdesk', a, '--flag'], dir);
    await vi.waitFor(() => expect(sent).toHaveBeenCalledWith({ type: 'open-files', paths: [a] }));
    sent.mockRestore();
    const stop = bridge.onShellEvent?.((e) => shellEvents.push(e));
    expect(stop).toBeTypeOf('function');
    expect(shellEvents).toEqual([{ type: 'open-files', paths: [a] }]);
    // macOS: files dropped on the dock icon, one event each.
    const open = { preventDefault: vi.fn() };
    fake.app.emit('open-file', open, a);
    fake.app.emit('open-file', open, b);
    await until(() => shellEvents.length === 2);
    expect(shellEvents[1]).toEqual({ type: 'open-files', paths: [a, b] });
    expect(open.preventDefault).toHaveBeenCalled();
  });

  it('adds files from File > Add Files and sends Find to the page', async () => {
    type Item = { label?: string; click?: () => void; submenu?: Item[] };
    const menu = fake.menus.at(-1) as { template: Item[] };
    const items = (function flat(list: Item[]): Item[] {
      return list.flatMap((i) => [i, ...flat(i.submenu ?? [])]);
    })(menu.template);
    fake.dialog.openResult = { canceled: false, filePaths: ['/videos/picked.mp4'] };
    items.find((i) => i.label === 'Add Files…')?.click?.();
    items.find((i) => i.label === 'Find…')?.click?.();
    await until(() => shellEvents.length >= 4);
    expect(shellEvents.slice(2)).toEqual(
      expect.arrayContaining([
        { type: 'open-files', paths: ['/videos/picked.mp4'] },
        { type: 'command', command: 'find' },
      ]),
    );
  });

  it('polls at once when the machine wakes up', () => {
    const wakes = () =>
      fake.crossings.filter((c) => c.route === 'main->engine' && c.channel === 'wake').length;
    const before = wakes();
    fake.powerMonitor.emit('resume');
    expect(wakes()).toBe(before + 1);
  });
});

describe('closing and quitting', () => {
  it('asks when the window closes while work runs: the tray keeps working, cancel keeps the window', async () => {
    desktop.engine.hold(true);
    await bridge.add({ inputs: [videoMp4(2, 'desktop-close.mp4')], to: ['fr'], outDir: tempDir() });
    await until(() => (fake.trays[0]?.tooltip ?? '').includes('1 left'));
    fake.dialog.messageResponse = { response: 2, checkboxChecked: false };
    expect(win.close()).toBe(false);
    await until(() => fake.dialog.messageBoxes.length === 1);
    expect(fake.dialog.messageBoxes[0]).toMatchObject({
      buttons: ['Keep Working in the Tray', 'Stop and Quit', 'Cancel'],
      message: 'Dubdesk is still working',
    });
    expect(win.visible).toBe(true);
    fake.dialog.messageResponse = { response: 0, checkboxChecked: false };
    win.close();
    await until(() => !win.visible);
    expect(win.destroyed).toBe(false);
    expect(existsSync(join(desktop.home, 'window-state.json'))).toBe(true);
    desktop.engine.hold(false);
  });

  it('quits by stopping the engine gently, then quits for real', async () => {
    const quit = fake.app.quit as ReturnType<typeof vi.fn>;
    const calls = quit.mock.calls.length;
    (fake.app.quit as () => void)();
    expect(fake.crossings.some((c) => c.route === 'main->engine' && c.channel === 'stop')).toBe(true);
    await until(() => fake.crossings.some((c) => c.route === 'engine->main' && c.channel === 'stopped'));
    await until(() => quit.mock.calls.length === calls + 2);
  });
});

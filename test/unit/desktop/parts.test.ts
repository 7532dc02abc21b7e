/** The desktop shell's parts that decide things, each on its own (no Electron needed). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { emptyCounts, type QueueTotals } from '../../../shared/contract/queue';
import type { JobView } from '../../../shared/contract/jobs';
import { allowedPrefixes, isAllowedLink, openAppLink } from '../../../electron/main/external-links';
import { mediaUrl, parseMediaUrl } from '../../../electron/main/media-url';
import { parseRange } from '../../../electron/main/media-protocol';
import { menuTemplate, type MenuActions } from '../../../electron/main/menu';
import { BatchNotifier, MAX_FAILURE_NOTICES, type Notice } from '../../../electron/main/notifications';
import { AwakeWhileTransferring, wakeOnResume } from '../../../electron/main/power';
import { formatSpeed, statusLine, working } from '../../../electron/main/queue-status';
import { filesFromArgv, FileBatcher } from '../../../electron/main/single-instance';
import { BatchProgress, TaskbarProgress } from '../../../electron/main/taskbar';
import { QueueTray, trayMenu, trayTooltip, type TrayActions } from '../../../electron/main/tray';
import {
  fitToScreens,
  loadWindowState,
  saveWindowState,
  stateFile,
} from '../../../electron/main/window-state';
import { isAppUrl, isTrustedSender } from '../../../electron/main/trust';
import { closeMessage, readPrefs, writePrefs } from '../../../electron/main/close-guard';
import { tempDir } from '../../helpers/engine';

function totals(
  patch: Omit<Partial<QueueTotals>, 'counts'> & { counts?: Partial<QueueTotals['counts']> } = {},
): QueueTotals {
  const { counts, ...rest } = patch;
  return {
    counts: { ...emptyCounts(), ...counts },
    total: 0,
    left: 0,
    bytesPerSecond: null,
    etaSeconds: null,
    creditsCommitted: 0,
    creditsCharged: 0,
    balance: null,
    creditsRemaining: null,
    offline: null,
    paused: null,
    running: true,
    resumedAfterCrash: 0,
    ...rest,
  };
}

function job(id: number, state: JobView['state'], patch: Partial<JobView> = {}): JobView {
  return {
    id,
    source: `/v/clip-${id}.mp4`,
    sourceKind: 'file',
    sourceName: `clip-${id}.mp4`,
    destLang: 'es',
    sourceLang: 'auto',
    api: 'v2',
    studio: false,
    state,
    remoteId: null,
    progress: 0,
    waiting: null,
    error: state === 'failed' ? { code: 'remote-failed', message: 'the dub failed on the service' } : null,
    durationSeconds: 3,
    estimatedCredits: 3,
    measuredDuration: null,
    creditsCharged: null,
    outDir: '/v',
    outputs: [],
    createdAt: '',
    updatedAt: '',
    completedAt: null,
    bytesPerSecond: null,
    etaSeconds: null,
    watchFolderId: null,
    ...patch,
  };
}

describe('window state', () => {
  const screens = [
    { x: 0, y: 0, width: 1920, height: 1080 },
    { x: 1920, y: 0, width: 1280, height: 1024 },
  ];

  it('is remembered in a JSON file and read back', () => {
    const dir = tempDir();
    saveWindowState(dir, { x: 2000, y: 100, width: 900, height: 700, maximized: true });
    expect(loadWindowState(dir, screens)).toEqual({
      x: 2000,
      y: 100,
      width: 900,
      height: 700,
      maximized: true,
    });
  });

  it('moves a window whose screen is gone back onto the primary one, fitted to it', () => {
    const b = fitToScreens({ x: 5000, y: 300, width: 2500, height: 700, maximized: false }, screens);
    expect(b).toEqual({ x: 0, y: 190, width: 1920, height: 700, maximized: false });
    // Above the top of every screen: its title bar could not be grabbed.
    expect(fitToScreens({ x: 100, y: -500, width: 800, height: 600, maximized: false }, screens).y).toBe(240);
  });

  it('falls back to the defaults when the file is damaged or says nonsense', () => {
    const dir = tempDir();
    writeFileSync(stateFile(dir), '{ nope');
    expect(loadWindowState(dir, screens)).toMatchObject({ width: 1200, height: 780 });
    writeFileSync(stateFile(dir), JSON.stringify({ x: 1, y: 1, width: -5, height: 'tall' }));
    expect(loadWindowState(dir, screens)).toMatchObject({ width: 1200, height: 780 });
  });
});

describe('the application menu', () => {
  const actions: MenuActions = {
    addFiles: vi.fn(),
    find: vi.fn(),
    preferences: vi.fn(),
    openDataFolder: vi.fn(),
    openLogs: vi.fn(),
    serviceWebsite: null,
  };
  type Item = { label?: string; role?: string; accelerator?: string; click?: () => void; submenu?: Item[] };
  const flat = (items: Item[]): Item[] => items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);

  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    it(`has the usual shortcuts and roles on ${platform}`, () => {
      const items = flat(menuTemplate(platform, true, actions) as Item[]);
      const by = (label: string) => items.find((i) => i.label === label);
      expect(by('Add Files…')?.accelerator).toBe('CmdOrCtrl+O');
      expect(by('Find…')?.accelerator).toBe('CmdOrCtrl+F');
      expect(items.find((i) => /Preferences|Settings/.test(i.label ?? ''))?.accelerator).toBe('CmdOrCtrl+,');
      const roles = items.map((i) => i.role);
      for (const role of [
        'quit',
        'copy',
        'paste',
        'undo',
        'selectAll',
        'windowMenu',
        'help',
        'togglefullscreen',
      ])
        expect(roles, role).toContain(role);
      // The developer tools only outside a package.
      expect(roles).not.toContain('toggleDevTools');
    });
  }
  it('calls the picker for Add Files and the page for Find', () => {
    const items = flat(menuTemplate('linux', false, actions) as Item[]);
    items.find((i) => i.label === 'Add Files…')?.click?.();
    items.find((i) => i.label === 'Find…')?.click?.();
    expect(actions.addFiles).toHaveBeenCalled();
    expect(actions.find).toHaveBeenCalled();
    expect(items.map((i) => i.role)).toContain('toggleDevTools');
  });
});

describe('the tray', () => {
  const actions: TrayActions = {
    show: vi.fn(),
    pauseAll: vi.fn(),
    resumeAll: vi.fn(),
    quitAfterUploads: vi.fn(),
    cancelQuitAfterUploads: vi.fn(),
    quit: vi.fn(),
  };
  it('shows jobs left and speed, and offers pause, resume and quit after the current uploads', () => {
    const t = totals({
      left: 12,
      total: 20,
      bytesPerSecond: 3_400_000,
      counts: { uploading: 2, queued: 10 },
    });
    expect(trayTooltip({ totals: t, quittingAfterUploads: false })).toBe('Dubdesk — 12 left · 3.4 MB/s');
    const menu = trayMenu({ totals: t, quittingAfterUploads: false }, actions);
    const labels = menu.map((m) => m.label);
    expect(labels).toContain('Pause All');
    expect(labels).toContain('Quit After Current Uploads (2)');
    menu
      .find((m) => m.label === 'Pause All')
      ?.click?.(undefined as never, undefined as never, undefined as never);
    expect(actions.pauseAll).toHaveBeenCalled();
    const paused = trayMenu(
      { totals: { ...t, paused: { reason: 'user', message: 'paused' } }, quittingAfterUploads: false },
      actions,
    );
    expect(paused.map((m) => m.label)).toContain('Resume All');
    expect(trayTooltip({ totals: t, quittingAfterUploads: true })).toBe('Dubdesk — quitting after 2 uploads');
    expect(trayTooltip({ totals: totals(), quittingAfterUploads: false })).toBe('Dubdesk — idle');
  });
  it('keeps its tooltip and menu current, and shows the window on click', () => {
    const shown: unknown[] = [];
    let click: () => void = () => {};
    const tray = new QueueTray(
      {
        setToolTip: (t) => shown.push(t),
        setContextMenu: () => {},
        on: (_e, fn) => (click = fn),
        destroy: () => {},
      },
      actions,
      (t) => t,
    );
    tray.update({ totals: totals({ left: 3, counts: { queued: 3 } }) });
    expect(shown.at(-1)).toBe('Dubdesk — 3 left');
    click();
    expect(actions.show).toHaveBeenCalled();
  });
});

describe('notifications', () => {
  it('says once when a batch drains, with what finished and what failed', () => {
    const notices: Notice[] = [];
    const n = new BatchNotifier((x) => notices.push(x));
    n.totals(totals({ left: 4 }));
    for (const id of [1, 2, 3]) {
      n.job(job(id, 'uploading'), true);
      n.job(job(id, 'completed'), true);
      n.job(job(id, 'completed'), true); // the same state again is not a second completion
    }
    n.job(job(4, 'failed'), true);
    expect(notices).toEqual([]); // the window was in front: no failure notice
    n.totals(totals({ left: 0 }));
    n.totals(totals({ left: 0 }));
    expect(notices).toEqual([{ title: 'Batch finished with failures', body: '3 done, 1 failed', jobId: 4 }]);
  });

  it('tells about a failure while the window is away, the first few of a batch; a click opens the job', () => {
    const notices: Notice[] = [];
    const n = new BatchNotifier((x) => notices.push(x));
    for (let id = 1; id <= 6; id++) n.job(job(id, 'failed'), false);
    expect(notices).toHaveLength(MAX_FAILURE_NOTICES);
    expect(notices[0]).toMatchObject({ title: 'clip-1.mp4 → es failed', jobId: 1 });
    expect(notices[0]?.body).toMatch(/the dub failed on the service/);
    n.totals(totals({ left: 0 }));
    expect(notices.at(-1)).toMatchObject({ body: '0 done, 6 failed', jobId: null });
  });

  it('stays quiet when the user turned it off, and for a batch that was all canceled', () => {
    const notices: Notice[] = [];
    const n = new BatchNotifier((x) => notices.push(x));
    n.enabled = false;
    n.job(job(1, 'completed'), false);
    n.totals(totals({ left: 0 }));
    n.enabled = true;
    n.totals(totals({ left: 1 }));
    n.job(job(2, 'canceled'), false);
    n.totals(totals({ left: 0 }));
    expect(notices).toEqual([]);
  });
});

describe('taskbar progress and badge', () => {
  it('shows the share of the batch done, growing with jobs added mid-batch, and clears when idle', () => {
    const p = new BatchProgress();
    expect(p.update(totals({ left: 4 }))).toBe(0);
    expect(p.update(totals({ left: 2 }))).toBe(0.5);
    expect(p.update(totals({ left: 8 }))).toBe(0);
    expect(p.update(totals({ left: 6 }))).toBe(0.25);
    expect(p.update(totals({ left: 0 }))).toBeNull();
  });
  it('sets the bar (paused and error modes too) and the badge', () => {
    const bars: [number, string | undefined][] = [];
    const badges: (number | undefined)[] = [];
    const bar = new TaskbarProgress(() => ({ setProgressBar: (v, o) => void bars.push([v, o?.mode]) }), {
      setBadgeCount: (n) => (badges.push(n), true),
    });
    bar.update(totals({ left: 4 }));
    bar.update(totals({ left: 2, paused: { reason: 'user', message: 'paused' } }));
    bar.update(totals({ left: 1, offline: 'no network' }));
    bar.update(totals({ left: 0 }));
    expect(bars).toEqual([
      [0.01, 'normal'],
      [0.5, 'paused'],
      [0.75, 'error'],
      [-1, 'none'],
    ]);
    expect(badges).toEqual([4, 2, 1, 0]);
  });
});

describe('power', () => {
  it('keeps the machine awake while bytes move and lets it sleep when they stop', () => {
    const active = new Set<number>();
    let next = 1;
    const keeper = new AwakeWhileTransferring({
      start: (type) => {
        expect(type).toBe('prevent-app-suspension');
        active.add(next);
        return next++;
      },
      stop: (id) => active.delete(id),
    });
    keeper.update(totals({ left: 3, counts: { queued: 3 } }));
    expect(active.size).toBe(0);
    keeper.update(totals({ left: 3, counts: { uploading: 1 } }));
    keeper.update(totals({ left: 3, counts: { downloading: 2 } }));
    expect(active.size).toBe(1);
    keeper.update(totals({ left: 2, counts: { processing: 2 } }));
    expect(active.size).toBe(0);
    expect(keeper.holding).toBe(false);
  });
  it('wakes the engine when the machine resumes', () => {
    const listeners: (() => void)[] = [];
    const wake = vi.fn();
    wakeOnResume({ on: (_e, fn) => listeners.push(fn) }, wake);
    for (const l of listeners) l();
    expect(wake).toHaveBeenCalledTimes(1);
  });
});

describe('files handed to the app', () => {
  it('takes the files and folders of a command line, not switches, not the app folder, not missing names', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'a.mp4'), 'x');
    const argv = [
      '/usr/bin/electron',
      '.',
      '--enable-logging',
      'a.mp4',
      join(dir, 'folder'),
      'missing.mp4',
      'a.mp4',
    ];
    expect(filesFromArgv(argv, { defaultApp: true, cwd: dir })).toEqual([
      join(dir, 'a.mp4'),
      join(dir, 'folder'),
    ]);
    expect(filesFromArgv(['C:\\Dubdesk.exe', join(dir, 'a.mp4')], { defaultApp: false, cwd: '/' })).toEqual([
      join(dir, 'a.mp4'),
    ]);
  });
  it('hands files that arrive one by one (a drop on the dock) over together', async () => {
    const got: string[][] = [];
    const b = new FileBatcher((p) => got.push(p));
    b.add(['/a']);
    b.add(['/b', '/a']);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(got).toEqual([['/a', '/b']]);
  });
});

describe('links to the outside', () => {
  const settings = (baseUrl: string | null, mode: 'service' | 'sandbox' = 'service') => ({
    service: {
      mode,
      configured: true,
      baseUrl,
      legacyUrl: null,
      apiKeySet: true,
      apiKeyHint: null,
      keyStore: null,
    },
  });
  it('opens only https links under the prefixes the app built', () => {
    const prefixes = allowedPrefixes(settings('https://api.dubbing.example/v2'));
    expect(prefixes).toEqual(['https://api.dubbing.example/']);
    expect(isAllowedLink('https://api.dubbing.example/account', prefixes)).toBe(true);
    for (const url of [
      'http://api.dubbing.example/account',
      'https://api.dubbing.example.evil.example/',
      'https://user:pw@api.dubbing.example/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://evil.example/?https://api.dubbing.example/',
      'not a url',
    ])
      expect(isAllowedLink(url, prefixes), url).toBe(false);
    expect(allowedPrefixes(settings('http://127.0.0.1:8787'))).toEqual([]);
    expect(allowedPrefixes(settings(null))).toEqual([]);
    expect(allowedPrefixes(settings('https://x.example', 'sandbox'))).toEqual([]);
    const opened: string[] = [];
    const open = async (u: string) => void opened.push(u);
    expect(openAppLink('https://evil.example/', prefixes, open)).toBe(false);
    expect(openAppLink('https://api.dubbing.example/keys', prefixes, open)).toBe(true);
    expect(opened).toEqual(['https://api.dubbing.example/keys']);
  });
});

describe('media addresses and ranges', () => {
  it('names a job and a kind, and nothing else', () => {
    expect(mediaUrl(12, 'dub')).toBe('dubdesk-media://job/12/dub');
    expect(parseMediaUrl('dubdesk-media://job/12/subtitles')).toEqual({ jobId: 12, kind: 'subtitles' });
    for (const url of [
      'dubdesk-media://job/12/dub/../../etc/passwd',
      'dubdesk-media://job/0/dub',
      'dubdesk-media://job/-1/dub',
      'dubdesk-media://job/12/secret',
      'dubdesk-media://other/12/dub',
      'dubdesk-media://job/12/dub?path=/etc/passwd',
      'dubdesk://job/12/dub',
      'dubdesk-media://job//etc/passwd',
    ])
      expect(parseMediaUrl(url), url).toBeNull();
    expect(() => mediaUrl(1.5, 'dub')).toThrow();
    expect(() => mediaUrl(1, 'passwd' as never)).toThrow();
  });
  it('reads byte ranges as a media element sends them', () => {
    expect(parseRange(null, 100)).toBeNull();
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    for (const bad of ['bytes=100-', 'bytes=5-2', 'bytes=-', 'items=0-1', 'bytes=0-1,5-6', 'bytes=-0'])
      expect(parseRange(bad, 100), bad).toBe('bad');
  });
});

describe('who may talk to the main process', () => {
  const frame = (url: string, parent: unknown = null) => ({ url, parent });
  it('only the app page, in the main frame of one of its windows', () => {
    const main = frame('dubdesk://app/index.html');
    const contents = { mainFrame: main };
    const ours = () => [contents];
    expect(isTrustedSender({ sender: contents, senderFrame: main }, ours)).toBe(true);
    expect(isTrustedSender({ sender: contents, senderFrame: null }, ours)).toBe(false);
    const iframe = frame('dubdesk://app/index.html', main);
    expect(isTrustedSender({ sender: contents, senderFrame: iframe }, ours)).toBe(false);
    const elsewhere = frame('https://evil.example/');
    expect(isTrustedSender({ sender: { mainFrame: elsewhere }, senderFrame: elsewhere }, ours)).toBe(false);
    const stranger = { mainFrame: frame('dubdesk://app/index.html') };
    expect(isTrustedSender({ sender: stranger, senderFrame: stranger.mainFrame }, ours)).toBe(false);
    for (const url of [
      'file:///index.html',
      'dubdesk://evil/index.html',
      'dubdesk://app:1/x',
      'dubdesk://u@app/',
    ])
      expect(isAppUrl(url), url).toBe(false);
  });
});

describe('the queue in words', () => {
  it('formats speeds and says whether work goes on', () => {
    expect(formatSpeed(null)).toBeNull();
    expect(formatSpeed(950)).toBe('950 B/s');
    expect(formatSpeed(12_300_000)).toBe('12 MB/s');
    expect(working(totals({ left: 2, counts: { queued: 2 } }))).toBe(true);
    expect(working(totals({ left: 2, counts: { paused: 2 } }))).toBe(false);
    expect(working(totals({ left: 2, paused: { reason: 'credits', message: 'out of credits' } }))).toBe(
      false,
    );
    expect(statusLine(totals({ left: 2, offline: 'no network' }))).toBe('offline · 2 left');
    expect(closeMessage(totals({ left: 3, counts: { uploading: 1 } })).detail).toMatch(
      /^3 jobs left \(1 uploading\)/,
    );
  });
  it('keeps the answer to the close prompt when asked to, and reads a damaged file as "ask"', () => {
    const dir = tempDir();
    expect(readPrefs(dir)).toEqual({ whenClosedWhileWorking: 'ask' });
    writePrefs(dir, { whenClosedWhileWorking: 'tray' });
    expect(readPrefs(dir)).toEqual({ whenClosedWhileWorking: 'tray' });
    writeFileSync(join(dir, 'desktop.json'), '{"whenClosedWhileWorking":"explode"}');
    expect(readPrefs(dir)).toEqual({ whenClosedWhileWorking: 'ask' });
  });
});

describe('the media protocol, file by file', () => {
  const jobWith = (outputs: JobView['outputs'], source = '/nowhere/source.mp4') =>
    ({ ...job(7, 'completed', { outputs, source }), sourceType: 'video/mp4' }) as never;
  const apiFor = (detail: unknown) =>
    ({
      getJob: async ({ id }: { id: number }) => {
        if (id !== 7) throw Object.assign(new Error('no job'), { code: 'not-found' });
        return detail;
      },
    }) as never;

  it('turns SRT subtitles into WebVTT for the <track>', async () => {
    const { mediaProtocolHandler } = await import('../../../electron/main/media-protocol');
    const dir = tempDir();
    const srt = join(dir, 'clip.es.srt');
    writeFileSync(srt, '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHola\r\n');
    const handler = mediaProtocolHandler(
      apiFor(jobWith([{ type: 'translated_subtitle', path: srt, bytes: 40 }])),
    );
    const res = await handler(new Request('dubdesk-media://job/7/subtitles'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(await res.text()).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHola\n');
  });

  it('serves regular files only: a folder or a missing file where an output should be is a 404', async () => {
    const { mediaProtocolHandler } = await import('../../../electron/main/media-protocol');
    const dir = tempDir();
    mkdirSync(join(dir, 'clip.es.mp4'));
    const handler = mediaProtocolHandler(
      apiFor(jobWith([{ type: 'translated_mp4', path: join(dir, 'clip.es.mp4'), bytes: 1 }])),
    );
    expect((await handler(new Request('dubdesk-media://job/7/dub'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/7/original'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/8/dub'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/7/dub', { method: 'POST' }))).status).toBe(405);
  });
});

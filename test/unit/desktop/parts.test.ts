/** The desktop shell's parts around the window, each on its own (no Electron needed). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate, type MenuActions } from '../../../electron/main/menu';
import { BatchNotifier, MAX_FAILURE_NOTICES, type Notice } from '../../../electron/main/notifications';
import { AwakeWhileTransferring, wakeOnResume } from '../../../electron/main/power';
import { speedWords, statusLine, working } from '../../../electron/main/queue-status';
import { BatchProgress, TaskbarProgress } from '../../../electron/main/taskbar';
import { QueueTray, trayMenu, trayTooltip, type TrayActions } from '../../../electron/main/tray';
import {
  fitToScreens,
  loadWindowState,
  saveWindowState,
  stateFile,
} from '../../../electron/main/window-state';
import { closeMessage, readPrefs, writePrefs } from '../../../electron/main/close-guard';
import { tempDir } from '../../helpers/temp-dir';
import { job, totals } from './fixtures';

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
      bytesPerSecond: 3.4 * 1024 * 1024,
      counts: { uploading: 2, queued: 10 },
    });
    expect(trayTooltip({ totals: t, quittingAfterUploads: false })).toBe('Dubdesk — 12 left · 3.4 MiB/s');
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

describe('the queue in words', () => {
  it('formats speeds and says whether work goes on', () => {
    expect(speedWords(null)).toBeNull();
    expect(speedWords(950)).toBe('950 B/s');
    expect(speedWords(12_300_000)).toBe('12 MiB/s');
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

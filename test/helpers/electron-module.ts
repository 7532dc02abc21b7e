/** The `electron` module the tests mock in: `vi.mock('electron', … electronModule())`, backed by `fake`. */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import { acrossBridge, engineChild, fake, FakeBrowserWindow, ipcRenderer } from './electron-fake';

type Listener = (...args: unknown[]) => unknown;

class FakeTray {
  readonly record: (typeof fake.trays)[number];
  constructor(readonly image: unknown) {
    this.record = { tooltip: '', menu: null, emitter: new EventEmitter() };
    fake.trays.push(this.record);
  }
  setToolTip(t: string) {
    this.record.tooltip = t;
  }
  setContextMenu(m: { template: Record<string, unknown>[] }) {
    this.record.menu = m;
  }
  on(e: string, fn: Listener) {
    this.record.emitter.on(e, fn);
  }
  destroy() {}
}

class FakeNotification {
  readonly record: (typeof fake.notifications)[number];
  static isSupported = () => true;
  constructor(o: { title: string; body: string }) {
    this.record = { title: o.title, body: o.body, shown: false, emitter: new EventEmitter() };
    fake.notifications.push(this.record);
  }
  on(e: string, fn: Listener) {
    this.record.emitter.on(e, fn);
  }
  show() {
    this.record.shown = true;
  }
}

export function electronModule(): Record<string, unknown> {
  const app = Object.assign(new EventEmitter(), {
    /** Electron scopes the lock to the user-data folder as it is when the lock is asked for. */
    requestSingleInstanceLock: vi.fn((_additionalData?: unknown) => {
      fake.lock.push({ userData: app.getPath('userData'), additionalData: _additionalData });
      return fake.lock.length === 1 || fake.lock.at(-1)?.userData !== fake.lock[0]?.userData;
    }),
    setAppUserModelId: vi.fn(),
    getAppPath: () => '/opt/dubdesk/resources/app.asar',
    quit: vi.fn(() => {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) app.emit('will-quit');
    }),
    exit: vi.fn(),
    whenReady: () => Promise.resolve(),
    getVersion: () => '0.1.0',
    getName: () => 'Dubdesk',
    isPackaged: false,
    paths: new Map<string, string>([['appData', '/tmp/appdata']]),
    getPath(name: string) {
      return this.paths.get(name) ?? `/tmp/${name}`;
    },
    setPath(name: string, value: string) {
      this.paths.set(name, value);
    },
    setBadgeCount: vi.fn((n: number) => {
      fake.badge.push(n);
      return true;
    }),
  });
  fake.app = app as unknown as typeof fake.app;
  return {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: fake.ipcMain,
    ipcRenderer,
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        fake.exposed[key] = acrossBridge(api);
      },
    },
    webUtils: { getPathForFile: (f: { path?: string }) => f.path ?? '' },
    protocol: {
      registerSchemesAsPrivileged: (schemes: typeof fake.privileged) => fake.privileged.push(...schemes),
      handle: (scheme: string, fn: (req: Request) => Promise<Response>) => fake.protocols.set(scheme, fn),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Listener) => (fake.session.permissionRequest = fn),
        setPermissionCheckHandler: (fn: Listener) => (fake.session.permissionCheck = fn),
        setDevicePermissionHandler: (fn: Listener) => (fake.session.devicePermission = fn),
        on: (e: string, fn: Listener) => fake.session.emitter.on(e, fn),
        resolveProxy: async (url: string) => fake.session.proxyFor(url),
        webRequest: {
          onBeforeRequest: (filter: { urls: string[] }, fn: Listener) =>
            (fake.session.beforeRequest = { filter, fn }),
        },
      },
    },
    shell: {
      showItemInFolder: (p: string) => void fake.shell.shown.push(p),
      openPath: async (p: string) => {
        fake.shell.opened.push(p);
        return '';
      },
      openExternal: async (u: string) => void fake.shell.external.push(u),
    },
    dialog: {
      showOpenDialog: vi.fn(async () => structuredClone(fake.dialog.openResult)),
      showMessageBox: vi.fn(async (_w: unknown, o: Record<string, unknown>) => {
        fake.dialog.messageBoxes.push(o);
        return fake.dialog.messageResponse;
      }),
      showErrorBox: (title: string, body: string) => void fake.dialog.errors.push([title, body]),
    },
    clipboard: { writeText: (text: string) => void fake.clipboard.push(text) },
    Menu: {
      buildFromTemplate: (template: unknown) => ({ template }),
      setApplicationMenu: (m: unknown) => void fake.menus.push(m),
    },
    Tray: FakeTray,
    Notification: FakeNotification,
    nativeImage: { createFromPath: (p: string) => ({ path: p }) },
    nativeTheme: { shouldUseDarkColors: false },
    powerSaveBlocker: {
      start: (type: string) => {
        fake.blockers.started.push(type);
        const id = fake.blockers.next++;
        fake.blockers.active.add(id);
        return id;
      },
      stop: (id: number) => fake.blockers.active.delete(id),
    },
    powerMonitor: fake.powerMonitor,
    screen: {
      getPrimaryDisplay: () => fake.displays[0],
      getAllDisplays: () => fake.displays,
    },
    utilityProcess: { fork: () => engineChild() },
  };
}

/**
 * A stand-in for the `electron` module (its binary cannot be installed here), faithful where the shell's
 * correctness depends on it: IPC values pass through structured clone as Electron sends them, the context
 * bridge copies values and keeps only the message of an Error, the utility process gets clones too.
 * Tests mock `electron` with `electronModule()` (electron-module.ts) and inspect `fake`.
 */
import { EventEmitter } from 'node:events';
import type { EnginePort } from '../../electron/main/engine-process';
import type { FromEngine, ToEngine } from '../../electron/main/engine-protocol';

type Listener = (...args: unknown[]) => unknown;

/** Every message that crossed a process boundary, in order. */
export interface Crossing {
  route: 'page->main' | 'main->page' | 'main->engine' | 'engine->main';
  channel: string;
  data: unknown;
}

export class FakeFrame {
  parent: FakeFrame | null = null;
  constructor(public url: string) {}
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  mainFrame: FakeFrame;
  destroyed = false;
  windowOpenHandler: Listener | null = null;
  /** What the page's ipcRenderer hears (channel -> listeners). */
  readonly pageListeners = new Map<string, Listener[]>();

  constructor(url: string) {
    super();
    this.mainFrame = new FakeFrame(url);
  }
  setWindowOpenHandler(h: Listener) {
    this.windowOpenHandler = h;
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, data: unknown) {
    const copy = structuredClone(data);
    fake.crossings.push({ route: 'main->page', channel, data: copy });
    for (const l of this.pageListeners.get(channel) ?? []) l({ sender: null }, copy);
  }
  destroy() {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static all: FakeBrowserWindow[] = [];
  readonly webContents: FakeWebContents;
  loaded: string[] = [];
  visible = false;
  focused = false;
  minimized = false;
  maximized = false;
  destroyed = false;
  progress: { value: number; mode?: string }[] = [];
  bounds: { x: number; y: number; width: number; height: number };

  constructor(readonly options: Record<string, unknown>) {
    super();
    this.webContents = new FakeWebContents('about:blank');
    this.bounds = {
      x: (options.x as number) ?? 0,
      y: (options.y as number) ?? 0,
      width: (options.width as number) ?? 800,
      height: (options.height as number) ?? 600,
    };
    FakeBrowserWindow.all.push(this);
  }
  static getAllWindows() {
    return FakeBrowserWindow.all.filter((w) => !w.destroyed);
  }
  async loadURL(url: string) {
    this.loaded.push(url);
    this.webContents.mainFrame.url = url;
    this.emit('ready-to-show');
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused = true;
  }
  isFocused() {
    return this.focused;
  }
  isMinimized() {
    return this.minimized;
  }
  restore() {
    this.minimized = false;
  }
  minimize() {
    this.minimized = true;
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getNormalBounds() {
    return this.bounds;
  }
  setProgressBar(value: number, options?: { mode?: string }) {
    this.progress.push({ value, ...(options?.mode ? { mode: options.mode } : {}) });
  }
  /** Closes as Electron does: 'close' may be prevented. */
  close() {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (prevented) return false;
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
    return true;
  }
}

/** Values crossing the context bridge: data is copied, functions are proxied, an Error keeps its message only. */
export function acrossBridge(value: unknown): unknown {
  if (typeof value === 'function') {
    return (...args: unknown[]) => {
      const out = (value as Listener)(...args.map(acrossBridge));
      if (out instanceof Promise)
        return out.then(acrossBridge, (e: unknown) => Promise.reject(errorAcrossBridge(e)));
      return acrossBridge(out);
    };
  }
  if (value instanceof Error) return errorAcrossBridge(value);
  if (value instanceof Promise)
    return value.then(acrossBridge, (e: unknown) => Promise.reject(errorAcrossBridge(e)));
  if (Array.isArray(value)) return value.map(acrossBridge);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = acrossBridge(v);
    return out;
  }
  return value;
}
function errorAcrossBridge(e: unknown): unknown {
  return e instanceof Error ? new Error(e.message) : structuredClone(e);
}

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, fn: Listener) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
}

/** A page of a window: its sender identity and its frame, for the fake ipcRenderer. */
export interface FakePage {
  contents: FakeWebContents;
  frame: FakeFrame;
}

function eventFor(page: FakePage) {
  return { sender: page.contents, senderFrame: page.frame, processId: 1, frameId: 1 };
}

export const fake = {
  crossings: [] as Crossing[],
  /** The page whose preload runs (its ipcRenderer speaks as this page). */
  page: null as FakePage | null,
  exposed: {} as Record<string, unknown>,
  ipcMain: new FakeIpcMain(),
  app: null as unknown as EventEmitter & Record<string, unknown>,
  protocols: new Map<string, (req: Request) => Promise<Response>>(),
  privileged: [] as { scheme: string; privileges: Record<string, boolean> }[],
  session: {
    permissionRequest: null as Listener | null,
    permissionCheck: null as Listener | null,
    devicePermission: null as Listener | null,
    beforeRequest: null as { filter: { urls: string[] }; fn: Listener } | null,
    emitter: new EventEmitter(),
    /** The system's proxy for a URL, as Chromium's PAC answer. */
    proxyFor: (_url: string) => 'DIRECT',
  },
  menus: [] as unknown[],
  trays: [] as {
    tooltip: string;
    menu: { template: Record<string, unknown>[] } | null;
    emitter: EventEmitter;
  }[],
  notifications: [] as { title: string; body: string; shown: boolean; emitter: EventEmitter }[],
  blockers: { started: [] as string[], active: new Set<number>(), next: 1 },
  powerMonitor: new EventEmitter(),
  dialog: {
    openResult: { canceled: false, filePaths: [] as string[] },
    messageResponse: { response: 0, checkboxChecked: false },
    messageBoxes: [] as Record<string, unknown>[],
    errors: [] as string[][],
  },
  shell: {
    shown: [] as string[],
    opened: [] as string[],
    external: [] as string[],
  },
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  badge: [] as number[],
  /** Each single-instance lock asked for: the user-data folder it was scoped to, and what was handed over. */
  lock: [] as { userData: string; additionalData: unknown }[],
  /** What was put on the clipboard, in order. */
  clipboard: [] as string[],
  /** Runs the engine's process side in this process, over a structured-clone port. */
  engineChild: null as null | { alive: boolean },

  /** A page loaded from `url` in a window (or alone): the preload speaks for it. */
  openPage(url: string, contents = new FakeWebContents(url)): FakePage {
    contents.mainFrame.url = url;
    const page = { contents, frame: contents.mainFrame };
    this.page = page;
    return page;
  },
  /** Sends as `page` regardless of which page the preload belongs to (a hostile frame, another window). */
  async invokeAs(page: FakePage, channel: string, arg: unknown): Promise<unknown> {
    const h = this.ipcMain.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return structuredClone(await h(eventFor(page), structuredClone(arg)));
  },
  sendAs(page: FakePage, channel: string, arg: unknown): void {
    this.ipcMain.emit(channel, eventFor(page), structuredClone(arg));
  },
  reset() {
    this.crossings.length = 0;
    this.exposed = {};
    FakeBrowserWindow.all = [];
  },
};

export const ipcRenderer = {
  async invoke(channel: string, arg: unknown) {
    const page = fake.page;
    if (!page) throw new Error('no page');
    const sent = structuredClone(arg);
    fake.crossings.push({ route: 'page->main', channel, data: sent });
    const h = fake.ipcMain.handlers.get(channel);
    if (!h) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
    const reply = structuredClone(await h(eventFor(page), sent));
    fake.crossings.push({ route: 'main->page', channel, data: reply });
    return reply;
  },
  send(channel: string, arg: unknown) {
    const page = fake.page;
    if (!page) throw new Error('no page');
    const sent = structuredClone(arg);
    fake.crossings.push({ route: 'page->main', channel, data: sent });
    fake.ipcMain.emit(channel, eventFor(page), sent);
  },
  on(channel: string, fn: Listener) {
    const page = fake.page;
    if (!page) throw new Error('no page');
    const list = page.contents.pageListeners.get(channel) ?? [];
    list.push(fn);
    page.contents.pageListeners.set(channel, list);
  },
};

/** The engine's process, in this process: messages cross as structured clones and are recorded. */
export async function forkEngineInProcess(): Promise<{
  postMessage(m: ToEngine): void;
  on(event: string, fn: Listener): void;
  kill(): boolean;
}> {
  const { serveEngine } = await import('../../electron/main/engine-process');
  const toMain = new EventEmitter();
  const toEngine = new EventEmitter();
  let alive = true;
  const port: EnginePort = {
    post: (m: FromEngine) => {
      const copy = structuredClone(m);
      fake.crossings.push({ route: 'engine->main', channel: m.type, data: copy });
      setImmediate(() => toMain.emit('message', copy));
    },
    listen: (handler) => toEngine.on('message', handler),
  };
  serveEngine(port, () => {
    if (!alive) return;
    alive = false;
    setImmediate(() => toMain.emit('exit', 0));
  });
  return {
    postMessage: (m: ToEngine) => {
      const copy = structuredClone(m);
      fake.crossings.push({ route: 'main->engine', channel: m.type, data: copy });
      setImmediate(() => toEngine.emit('message', copy));
    },
    on: (event, fn) => void toMain.on(event, fn),
    kill: () => {
      alive = false;
      toMain.emit('exit', 1);
      return true;
    },
  };
}

/** A child whose `fork` is synchronous as Electron's is, connecting once the module has loaded. */
export function engineChild() {
  const queued: ToEngine[] = [];
  const listeners: [string, Listener][] = [];
  let real: Awaited<ReturnType<typeof forkEngineInProcess>> | null = null;
  void forkEngineInProcess().then((c) => {
    real = c;
    for (const [e, fn] of listeners) c.on(e, fn);
    for (const m of queued.splice(0)) c.postMessage(m);
  });
  return {
    postMessage: (m: ToEngine) => (real ? real.postMessage(m) : void queued.push(m)),
    on: (event: string, fn: Listener) => (real ? real.on(event, fn) : void listeners.push([event, fn])),
    kill: () => real?.kill() ?? false,
  };
}

import { beforeAll, describe, expect, it, vi } from 'vitest';

/** The desktop shell against a mocked `electron` module (the binary cannot be installed here). */
const created: {
  options: Record<string, unknown>;
  handlers: Record<string, (...a: unknown[]) => unknown>;
  loaded: string[];
}[] = [];
const ipcHandlers = new Map<string, (event: { senderFrame?: { url: string } }) => unknown>();

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => [];
    webContents: {
      handlers: Record<string, (...a: unknown[]) => unknown>;
      setWindowOpenHandler: (h: (...a: unknown[]) => unknown) => void;
      on: (e: string, h: (...a: unknown[]) => unknown) => void;
    };
    constructor(options: Record<string, unknown>) {
      const record = {
        options,
        handlers: {} as Record<string, (...a: unknown[]) => unknown>,
        loaded: [] as string[],
      };
      created.push(record);
      this.webContents = {
        handlers: record.handlers,
        setWindowOpenHandler: (h) => (record.handlers.windowOpen = h),
        on: (e, h) => (record.handlers[e] = h),
      };
      this.loadURL = async (url: string) => void record.loaded.push(url);
    }
    loadURL: (url: string) => Promise<void>;
    once() {}
  }
  return {
    app: {
      requestSingleInstanceLock: () => true,
      quit: vi.fn(),
      on: vi.fn(),
      whenReady: () => Promise.resolve(),
      getName: () => 'Dubdesk',
      getVersion: () => '0.1.0',
    },
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, fn: (event: { senderFrame?: { url: string } }) => unknown) =>
        ipcHandlers.set(channel, fn),
    },
    session: { defaultSession: { setPermissionRequestHandler: vi.fn() } },
    shell: { openExternal: vi.fn() },
  };
});

beforeAll(async () => {
  await import('../../electron/main/main');
  await new Promise((r) => setTimeout(r, 0));
});

describe('the Electron shell', () => {
  it('opens one window with the security checklist: isolated, sandboxed, no Node', () => {
    expect(created).toHaveLength(1);
    const prefs = created[0]?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    expect(created[0]?.loaded[0]).toMatch(/^file:.*renderer\/index\.html$/);
  });

  it('denies navigation and new windows', () => {
    const handlers = created[0]?.handlers ?? {};
    const event = { preventDefault: vi.fn() };
    handlers['will-navigate']?.(event, 'https://evil.example');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(handlers.windowOpen?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('answers IPC only from the app’s own page', async () => {
    const { RENDERER_URL } = await import('../../electron/main/trust');
    const handler = ipcHandlers.get('dubdesk:app-info');
    expect(handler?.({ senderFrame: { url: RENDERER_URL } })).toMatchObject({
      name: 'Dubdesk',
      shell: 'electron',
    });
    expect(() => handler?.({ senderFrame: { url: 'https://evil.example/' } })).toThrow('untrusted sender');
  });
});

/**
 * The renderer's face in Electron: `window.dubdesk`, a FaceBridge built from the contract's method table.
 * Runs sandboxed with context isolation, bundled into one CommonJS file; the page never sees `ipcRenderer`.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { ContractError } from '../../shared/contract/errors';
import type { EngineEvent, EventListener } from '../../shared/contract/events';
import { callerOf } from '../../shared/contract/proxy';
import type { BrowserFile, FaceBridge, MediaKind, ShellEvent, UpdateView } from '../../shared/face';
import { EVENTS, FACE, SHELL_EVENTS, SHELL_READY, SUBSCRIBE, methodChannel, type Reply } from './channels';
import { mediaUrl } from './media-url';

/**
 * A failure as a plain object: contextBridge copies only the message of an Error thrown across it, so a
 * DubdeskError would arrive without its code. This keeps `code`, `message`, `remedy` and `field`.
 */
function failure(error: ContractError): ContractError & { name: 'DubdeskError' } {
  return { name: 'DubdeskError', ...error };
}

async function ask<T>(channel: string, arg?: unknown): Promise<T> {
  const reply = (await ipcRenderer.invoke(channel, arg)) as Reply<T> | undefined;
  if (reply?.ok === true) return reply.value;
  throw failure(reply?.ok === false ? reply.error : { code: 'internal', message: 'the app did not answer' });
}

/** Listeners of one page; the main process is told when the first arrives and the last leaves. */
function listenerSet<E>(channel: string, first: () => void, none: () => void) {
  const listeners = new Set<(event: E) => void>();
  ipcRenderer.on(channel, (_sender, event: E) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        /* one listener failing must not starve the others */
      }
    }
  });
  return (listener: (event: E) => void): (() => void) => {
    const entry = (event: E) => listener(event);
    listeners.add(entry);
    if (listeners.size === 1) first();
    return () => {
      if (listeners.delete(entry) && listeners.size === 0) none();
    };
  };
}

const contract = callerOf((name, arg) => ask(methodChannel(name), arg));

const subscribe = listenerSet<EngineEvent>(
  EVENTS,
  () => ipcRenderer.send(SUBSCRIBE, true),
  () => ipcRenderer.send(SUBSCRIBE, false),
);
const onShellEvent = listenerSet<ShellEvent>(
  SHELL_EVENTS,
  () => ipcRenderer.send(SHELL_READY, true),
  () => ipcRenderer.send(SHELL_READY, false),
);

const bridge: FaceBridge = {
  ...contract,
  subscribe: (listener: EventListener, opened?: () => void) => {
    const stop = subscribe(listener);
    // The subscription message goes before any call the page makes after this (one ordered IPC channel), so
    // what it fetches from now on misses no event.
    if (opened) queueMicrotask(opened);
    return stop;
  },
  shell: 'electron',
  mediaUrl: (jobId: number, kind: MediaKind) => mediaUrl(jobId, kind),
  stageFiles: async (files: readonly BrowserFile[], onProgress?: (sent: number, total: number) => void) => {
    // Dropped files are already on this machine: their real paths, nothing to copy.
    const paths = files.map((f) => webUtils.getPathForFile(f as unknown as File)).filter((p) => p !== '');
    const total = files.reduce((n, f) => n + f.size, 0);
    onProgress?.(total, total);
    return paths;
  },
  pickFiles: () => ask<string[]>(FACE.pickFiles),
  pickFolder: () => ask<string | null>(FACE.pickFolder),
  canReveal: true,
  showInFolder: async (path: string) => {
    await ask<unknown>(FACE.showInFolder, path);
  },
  openPath: async (path: string) => {
    await ask<unknown>(FACE.openPath, path);
  },
  onShellEvent: (listener: (event: ShellEvent) => void) => onShellEvent(listener),
  checkForUpdates: () => ask<UpdateView>(FACE.checkForUpdates),
};

contextBridge.exposeInMainWorld('dubdesk', bridge);

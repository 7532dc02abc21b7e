/**
 * The contract over IPC, main side: one handler per method, each answering only the app's own page,
 * parsing the argument with the method's schema (`invoke`) and answering `{ ok, value } | { ok, error }`.
 */
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import type { EngineEvent } from '../../shared/contract/events';
import { invoke } from '../../shared/contract/implement';
import { METHOD_NAMES, type DubdeskApi } from '../../shared/contract/methods';
import { handlersOf } from '../../shared/contract/proxy';
import { EVENTS, SUBSCRIBE, methodChannel, type Reply } from './channels';
import { settle } from './settle';
import type { SenderLike } from './trust';

export type Trust = (event: SenderLike) => boolean;

/** Refused without a word about why: the asker is not the app. */
export const UNTRUSTED: Reply = {
  ok: false,
  error: { code: 'permission', message: 'refused: this page may not use Dubdesk' },
};

/** Registers every contract method and the event subscription; returns what undoes it. */
export function registerContractIpc(ipcMain: IpcMain, api: DubdeskApi, trusted: Trust): () => void {
  const handlers = handlersOf(api);
  for (const name of METHOD_NAMES) {
    ipcMain.handle(methodChannel(name), async (event: IpcMainInvokeEvent, arg: unknown) => {
      if (!trusted(event)) return UNTRUSTED;
      return settle(() => invoke(handlers, name, arg));
    });
  }

  // One engine subscription per page, numbered for it; a reload or a closed window ends it.
  const subscriptions = new Map<WebContents, () => void>();
  const watched = new WeakSet<WebContents>();
  const end = (contents: WebContents) => {
    subscriptions.get(contents)?.();
    subscriptions.delete(contents);
  };
  const onSubscribe = (event: IpcMainEvent, on: unknown) => {
    if (!trusted(event)) return;
    const contents = event.sender;
    end(contents);
    if (on !== true) return;
    const stop = api.subscribe((e: EngineEvent) => {
      if (!contents.isDestroyed()) contents.send(EVENTS, e);
    });
    subscriptions.set(contents, stop);
    if (!watched.has(contents)) {
      watched.add(contents);
      contents.on('destroyed', () => end(contents));
      contents.on('did-start-loading', () => end(contents));
    }
  };
  ipcMain.on(SUBSCRIBE, onSubscribe);

  return () => {
    for (const name of METHOD_NAMES) ipcMain.removeHandler(methodChannel(name));
    ipcMain.removeListener(SUBSCRIBE, onSubscribe);
    for (const contents of [...subscriptions.keys()]) end(contents);
  };
}

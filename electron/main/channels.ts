/**
 * The IPC vocabulary between the preload and the main process. Every answer is a `Reply`: a value, or a
 * contract error as plain data (nothing but structured-clone values cross a process). Schema-free: the
 * sandboxed preload bundles it, and it loads on every page load.
 */
import type { ContractError } from '../../shared/contract/errors';
import type { MethodName } from '../../shared/contract/methods';

/** One channel per contract method: `ipcRenderer.invoke('dubdesk:<method>', arg)`. */
export const methodChannel = (name: MethodName): string => `dubdesk:${name}`;

/** main -> page: the engine's events, numbered for this page. */
export const EVENTS = 'dubdesk:events';
/** page -> main: `true` once the page has a listener, `false` when its last one left. */
export const SUBSCRIBE = 'dubdesk:subscribe';
/** main -> page: what the shell itself tells the page (files to add, a job to show, a menu command). */
export const SHELL_EVENTS = 'dubdesk-face:shell-event';
/** page -> main: the page listens for shell events (what waited for it is sent now). */
export const SHELL_READY = 'dubdesk-face:shell-ready';
/** What only the desktop face does, outside the contract. */
export const FACE = {
  pickFiles: 'dubdesk-face:pick-files',
  pickFolder: 'dubdesk-face:pick-folder',
  showInFolder: 'dubdesk-face:show-in-folder',
  openPath: 'dubdesk-face:open-path',
  checkForUpdates: 'dubdesk-face:check-for-updates',
} as const;

export type Reply<T = unknown> = { ok: true; value: T } | { ok: false; error: ContractError };

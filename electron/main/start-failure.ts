/**
 * A start-up that throws must not leave a process with no window holding the single-instance lock (every
 * later launch would hand its files to it and quit): the user is told why, the reason is logged, the app
 * exits. Promises nobody waited on are logged too.
 */
import type { App, Dialog } from 'electron';
import { appendShellLog, linesOf, shellLogFile } from './shell-log';

type Deps = { app: Pick<App, 'getPath' | 'exit'>; dialog: Pick<Dialog, 'showErrorBox'> };

export function reportStartFailure(error: unknown, { app, dialog }: Deps): void {
  const log = shellLogFile(app.getPath('userData'));
  appendShellLog(log, ['Dubdesk could not start:', ...linesOf(error)]);
  const message = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Dubdesk could not start', `${message}\n\nDetails are in ${log}.`);
  app.exit(1);
}

export function logUnhandled(reason: unknown, { app }: Pick<Deps, 'app'>): void {
  appendShellLog(shellLogFile(app.getPath('userData')), ['Unhandled rejection:', ...linesOf(reason)]);
  console.error('Dubdesk: unhandled rejection:', reason);
}

/**
 * Events the shell sends the page (files to add, a job to show, a menu command). Until the page listens,
 * they wait: files opened with the app at launch arrive before the page has loaded.
 */
import type { IpcMain, IpcMainEvent, WebContents } from 'electron';
import type { ShellEvent } from '../../shared/face';
import { SHELL_EVENTS, SHELL_READY } from './channels';
import type { Trust } from './ipc';

export class ShellEvents {
  private ready = false;
  private pending: ShellEvent[] = [];
  private readonly watched = new WeakSet<WebContents>();

  constructor(private readonly page: () => WebContents | null) {}

  send(event: ShellEvent): void {
    const page = this.page();
    if (this.ready && page && !page.isDestroyed()) {
      page.send(SHELL_EVENTS, event);
      return;
    }
    const files = this.pending.find((e) => e.type === 'open-files');
    if (event.type === 'open-files' && files?.type === 'open-files')
      files.paths = [...new Set([...files.paths, ...event.paths])];
    else this.pending.push(event);
  }

  register(ipcMain: IpcMain, trusted: Trust): void {
    ipcMain.on(SHELL_READY, (event: IpcMainEvent, on: unknown) => {
      if (!trusted(event)) return;
      this.ready = on === true;
      if (!this.ready) return;
      if (!this.watched.has(event.sender)) {
        this.watched.add(event.sender);
        event.sender.on('did-start-loading', () => {
          this.ready = false;
        });
      }
      for (const e of this.pending.splice(0)) this.send(e);
    });
  }
}

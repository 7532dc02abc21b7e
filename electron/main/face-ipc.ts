/**
 * What only the desktop face does, over IPC: native pickers, and revealing or opening a file — only a
 * file that is a source or a finished output of one of the user's jobs, checked here through the contract.
 */
import { stat } from 'node:fs/promises';
import { extname, isAbsolute } from 'node:path';
import type { BrowserWindow, Dialog, IpcMain, IpcMainInvokeEvent, Shell } from 'electron';
import { z } from 'zod';
import { DubdeskError, badRequest } from '../../shared/contract/errors';
import type { DubdeskApi } from '../../shared/contract/methods';
import { FACE } from './channels';
import { settle } from './settle';
import { UNTRUSTED, type Trust } from './ipc';

const PathSchema = z.string().min(1).max(4096);

/** Extensions the Add sheet's picker offers first (any file can still be picked). */
export const MEDIA_EXTENSIONS = [
  'mp4',
  'm4v',
  'mov',
  'mkv',
  'webm',
  'avi',
  'mp3',
  'm4a',
  'wav',
  'aac',
  'flac',
  'ogg',
];

/** What the system may open with its player or viewer: media, posters and subtitles. */
const OPENABLE = new Set([...MEDIA_EXTENSIONS, 'jpg', 'png', 'vtt', 'srt']);

/**
 * Opens a job's file, unless its extension is one a double-click could run (a result saved before
 * extensions came from the bytes, a source named `.exe`): that one is shown in its folder instead.
 */
export async function openOrReveal(
  shell: Pick<Shell, 'showItemInFolder' | 'openPath'>,
  path: string,
): Promise<string> {
  if (OPENABLE.has(extname(path).slice(1).toLowerCase())) return shell.openPath(path);
  shell.showItemInFolder(path);
  return '';
}

/** True when `path` is the source or a finished output of a job in the queue. */
export async function isJobFile(api: DubdeskApi, path: string): Promise<boolean> {
  const page = await api.listJobs({ filter: { path }, limit: 1 });
  return page.total > 0;
}

async function checkedPath(api: DubdeskApi, arg: unknown): Promise<string> {
  const parsed = PathSchema.safeParse(arg);
  if (!parsed.success) throw badRequest(parsed.error, 'path');
  const path = parsed.data;
  if (!isAbsolute(path) || !(await isJobFile(api, path)))
    throw new DubdeskError('not-found', 'this file is not a source or a result of your jobs', {
      field: 'path',
    });
  try {
    await stat(path);
  } catch {
    throw new DubdeskError('not-found', 'the file is no longer there', {
      remedy: 'It was moved or deleted; retry the job to download it again.',
      field: 'path',
    });
  }
  return path;
}

export interface FaceDeps {
  api: DubdeskApi;
  dialog: Pick<Dialog, 'showOpenDialog'>;
  shell: Pick<Shell, 'showItemInFolder' | 'openPath'>;
  window: () => BrowserWindow | null;
}

export function registerFaceIpc(ipcMain: IpcMain, deps: FaceDeps, trusted: Trust): void {
  const handle = (channel: string, work: (arg: unknown) => Promise<unknown>) =>
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, arg: unknown) =>
      trusted(event) ? settle(() => work(arg)) : UNTRUSTED,
    );

  handle(FACE.pickFiles, async () => pickFiles(deps));
  handle(FACE.pickFolder, async () => {
    const win = deps.window();
    const options = { title: 'Choose a folder', properties: ['openDirectory' as const] };
    const r = win
      ? await deps.dialog.showOpenDialog(win, options)
      : await deps.dialog.showOpenDialog(options);
    return r.canceled ? null : (r.filePaths[0] ?? null);
  });
  handle(FACE.showInFolder, async (arg) => {
    deps.shell.showItemInFolder(await checkedPath(deps.api, arg));
  });
  handle(FACE.openPath, async (arg) => {
    const problem = await openOrReveal(deps.shell, await checkedPath(deps.api, arg));
    if (problem) throw new DubdeskError('not-found', `the file could not be opened: ${problem}`);
  });
}

/** The native file picker (also behind File > Add Files). */
export async function pickFiles(deps: Pick<FaceDeps, 'dialog' | 'window'>): Promise<string[]> {
  const win = deps.window();
  const options = {
    title: 'Add videos or audio',
    properties: ['openFile' as const, 'multiSelections' as const],
    filters: [
      { name: 'Video and audio', extensions: MEDIA_EXTENSIONS },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const r = win ? await deps.dialog.showOpenDialog(win, options) : await deps.dialog.showOpenDialog(options);
  return r.canceled ? [] : r.filePaths;
}

/**
 * Closing the window while work runs asks what to do: keep working in the tray, or stop (every job
 * resumes where it was the next time Dubdesk opens). Nothing is lost either way. The answer can be kept.
 * Where no tray can be seen (GNOME without the AppIndicator extension), the work goes on in the window,
 * minimised, never hidden where it could not be found again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import { z } from 'zod';
import type { QueueTotals } from '../../shared/contract/queue';
import { plural } from '../../shared/format';
import { stateWords } from '../../shared/state-words';

export type CloseChoice = 'tray' | 'quit' | 'cancel';

const PrefsSchema = z.object({ whenClosedWhileWorking: z.enum(['ask', 'tray', 'quit']).catch('ask') });
type Prefs = z.infer<typeof PrefsSchema>;
const prefsFile = (dir: string) => join(dir, 'desktop.json');

export function readPrefs(dir: string): Prefs {
  try {
    return PrefsSchema.parse(JSON.parse(readFileSync(prefsFile(dir), 'utf8')));
  } catch {
    return { whenClosedWhileWorking: 'ask' };
  }
}

export function writePrefs(dir: string, prefs: Prefs): void {
  const file = prefsFile(dir);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(PrefsSchema.parse(prefs))}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export function closeMessage(t: QueueTotals, trayShown = true): { message: string; detail: string } {
  const uploading = t.counts.uploading ?? 0;
  const moving = uploading ? ` (${uploading.toLocaleString('en-US')} ${stateWords('uploading')})` : '';
  const goesOn = trayShown ? 'In the tray, the work goes on.' : 'Minimised, the work goes on.';
  return {
    message: 'Dubdesk is still working',
    detail:
      `${plural(t.left, 'job')} left${moving}. ${goesOn} ` +
      'If you stop, every job resumes where it was the next time you open Dubdesk.',
  };
}

/** Asks (or uses the kept answer). */
export async function askOnClose(
  dialog: Pick<Dialog, 'showMessageBox'>,
  win: BrowserWindow,
  totals: QueueTotals,
  dir: string,
  trayShown = true,
): Promise<CloseChoice> {
  const kept = readPrefs(dir).whenClosedWhileWorking;
  if (kept !== 'ask') return kept;
  const { response, checkboxChecked } = await dialog.showMessageBox(win, {
    type: 'question',
    buttons: [trayShown ? 'Keep Working in the Tray' : 'Keep Working, Minimised', 'Stop and Quit', 'Cancel'],
    defaultId: 0,
    cancelId: 2,
    noLink: true,
    ...closeMessage(totals, trayShown),
    checkboxLabel: 'Do this every time',
  });
  const choice: CloseChoice = response === 0 ? 'tray' : response === 1 ? 'quit' : 'cancel';
  if (checkboxChecked && choice !== 'cancel') writePrefs(dir, { whenClosedWhileWorking: choice });
  return choice;
}

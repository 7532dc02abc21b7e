import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { othersRunning, type Presence } from '../home/presence';
import { restoreNewestBackup } from './backup';
import { openDatabase } from './open';
import { markRestored } from './restored-dubs';
import { salvageInto, type Salvaged } from './salvage';

export interface Restored {
  restoredFrom: string;
  /** Null when there was no file to keep (it was missing). */
  damagedKeptAs: string | null;
  /** When the backup put back was taken (ms). */
  backupTakenAt: number;
  salvaged: Salvaged;
}

/** What each face (OpenOptions' `face`) is to the user. */
const FACE_NAMES: Record<string, string> = {
  cli: 'a dubdesk command',
  web: '`dubdesk serve`',
  electron: 'the Dubdesk app',
};

const who = (p: Presence) =>
  `${FACE_NAMES[p.face] ?? 'another Dubdesk'} (pid ${p.pid}${p.host ? ` on ${p.host}` : ''})`;

/**
 * `dubdesk restore-db`: the newest good backup in place of the damaged queue, with what the damaged file
 * still holds that the backup does not (its readable rows: jobs added or moved on since). What neither
 * knows, the dubs made on the service since the backup, is asked for before anything is sent (see
 * db/restored-dubs.ts). Refused while another Dubdesk has the data folder open: it would write on.
 */
export function restoreQueue(home: string, now = new Date()): Restored {
  const others = othersRunning(home);
  if (others.length)
    throw new DubdeskError('busy', `another Dubdesk is using ${home}: ${others.map(who).join(', ')}`, {
      remedy:
        'Quit it (the app, `dubdesk serve`, or a command still running), then run `dubdesk restore-db` again.',
    });
  const file = join(home, 'dubdesk.db');
  const back = restoreNewestBackup(file, now);
  const backupTakenAt = statSync(back.restoredFrom).mtimeMs;
  const damaged = existsSync(back.damagedKeptAs) ? back.damagedKeptAs : null;
  const db = openDatabase(file);
  try {
    const salvaged = damaged
      ? salvageInto(db, damaged, now.getTime())
      : { jobs: 0, unreadable: 'the database file was missing' };
    markRestored(db, { restoredAt: now.getTime(), backupAt: backupTakenAt });
    return { restoredFrom: back.restoredFrom, damagedKeptAs: damaged, backupTakenAt, salvaged };
  } finally {
    db.close();
  }
}

import Database from 'better-sqlite3';
import { chmodSync, readdirSync, renameSync, rmSync, statSync, copyFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { makeFolderSync } from '../files/make-folder';
import { backupsToRemove } from './backup-retention';
import { checkWhole } from './damage';
const SUFFIX = '.db';
const PARTIAL = '.partial';

/** `<home>/backups`, beside the database. */
export const backupFolder = (dbFile: string) => join(dirname(dbFile), 'backups');

const stamp = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace('.', '-');

/** The backups of a database, newest first. */
export function listBackups(dbFile: string): string[] {
  let names: string[];
  try {
    names = readdirSync(backupFolder(dbFile));
  } catch {
    return [];
  }
  const prefix = `${basename(dbFile, SUFFIX)}-`;
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith(SUFFIX))
    .sort()
    .reverse()
    .map((n) => join(backupFolder(dbFile), n));
}

const mtime = (p: string) => statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0;
/** When a WAL last held changes: an empty one (every open makes one) changed nothing. */
const walChanged = (p: string) => {
  const s = statSync(p, { throwIfNoEntry: false });
  return s && s.size > 0 ? s.mtimeMs : 0;
};

/**
 * At start, once the database passed its check: an online copy (SQLite's backup API, so writers from other
 * processes are not stopped) to `backups/`, under a partial name until it is whole; the newest few and one
 * per recent hour and day kept (backup-retention.ts). Skipped when nothing was written since the newest one
 * (a `status` need not copy the queue).
 */
export async function backUp(
  db: Database.Database,
  dbFile: string,
  now = new Date(),
): Promise<string | null> {
  // Those an earlier version left readable by all (0644 in the 0700 folder).
  for (const kept of listBackups(dbFile)) {
    try {
      chmodSync(kept, 0o600);
    } catch {
      /* not ours to change: the folder keeps others out */
    }
  }
  const newest = listBackups(dbFile)[0];
  if (newest && mtime(newest) >= Math.max(mtime(dbFile), walChanged(`${dbFile}-wal`))) return null;
  const dir = backupFolder(dbFile);
  makeFolderSync(dir, 0o700);
  // A copy a killed process left half-made; a recent one may be another process's, still being written.
  for (const n of readdirSync(dir))
    if (n.endsWith(PARTIAL) && mtime(join(dir, n)) < now.getTime() - 3_600_000)
      rmSync(join(dir, n), { force: true });
  const target = join(dir, `${basename(dbFile, SUFFIX)}-${stamp(now)}${SUFFIX}`);
  const partial = `${target}.${process.pid}${PARTIAL}`;
  await db.backup(partial);
  // A copy of the whole queue (paths, names, what was paid): the user's alone, whatever the umask made it.
  chmodSync(partial, 0o600);
  renameSync(partial, target);
  const taken = listBackups(dbFile).map((path) => ({ path, takenAt: mtime(path) }));
  for (const old of backupsToRemove(taken, now.getTime())) rmSync(old, { force: true });
  return target;
}

/** Does this backup open and pass its check? */
function whole(file: string): boolean {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      checkWhole(db);
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/**
 * Puts the newest good backup in place of a damaged database. Nothing is deleted: the damaged file (and
 * its -wal and -shm, which belong to it and would be replayed into the backup) is renamed beside it.
 * Run it with no Dubdesk open on this home.
 */
export function restoreNewestBackup(
  dbFile: string,
  now = new Date(),
): { restoredFrom: string; damagedKeptAs: string } {
  const good = listBackups(dbFile).find(whole);
  if (!good)
    throw new DubdeskError('not-found', `No good backup of ${dbFile} was found in ${backupFolder(dbFile)}.`, {
      remedy: 'Move the damaged file away and Dubdesk starts with an empty queue.',
    });
  const kept = `${dbFile}.damaged-${stamp(now)}`;
  for (const ext of ['', '-wal', '-shm'])
    if (statSync(`${dbFile}${ext}`, { throwIfNoEntry: false }))
      renameSync(`${dbFile}${ext}`, `${kept}${ext}`);
  copyFileSync(good, dbFile);
  return { restoredFrom: good, damagedKeptAs: kept };
}

/**
 * The start-up backup, taken once the start's own work is over (`delayMs` in) or at close if that comes
 * first: copying a 100,000-job database took a third of a second of the event loop, which a restart's
 * catch-up of its watched folders was waiting behind.
 */
export class StartupBackup {
  private readonly timer: NodeJS.Timeout;
  private taken: Promise<unknown> | null = null;

  constructor(
    private readonly take: () => Promise<unknown>,
    delayMs: number,
  ) {
    this.timer = setTimeout(() => void this.now(), delayMs);
    this.timer.unref?.();
  }

  /** Takes it now, if not taken yet; resolves when it is done. */
  now(): Promise<unknown> {
    clearTimeout(this.timer);
    this.taken ??= this.take();
    return this.taken;
  }
}

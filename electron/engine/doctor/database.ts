import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listBackups } from '../db/backup';
import { lostDatabase } from '../db/damage';
import { lookAtDatabase } from '../db/look';
import { fail, messageOf, pass, type Check } from './check';

export const databaseFile = (home: string) => join(home, 'dubdesk.db');
export const backupsFolder = (home: string) => join(home, 'backups');

/** `PRAGMA quick_check` on a read-only connection: the queue's file is looked at, never changed. */
export function databaseCheck(home: string): Check {
  const title = 'Queue database';
  const file = databaseFile(home);
  const lost = lostDatabase(file, listBackups(file).length, backupsFolder(home));
  if (lost) return fail(title, lost.message.replace(/^The queue database /, ''), lost.remedy ?? '');
  if (!existsSync(file)) return pass(title, `${file} (not created yet: made on first use)`);
  const restore = `Quit Dubdesk and run \`dubdesk restore-db\`: it puts back the newest good copy from ${backupsFolder(home)} and keeps the damaged file beside it.`;
  try {
    const { problems, oddJobs } = lookAtDatabase(file);
    if (problems.length)
      return fail(title, `${file} is damaged (${problems.slice(0, 3).join('; ')})`, restore);
    const odd = oddJobs.map((id) => `job ${id}`);
    if (odd.length)
      return fail(
        title,
        `${file}: ${odd.join(', ')} hold a measured duration or charge no dub can have (shown as unknown)`,
        'Check those charges in your account on the service; retry or cancel the jobs, or clear them from the queue.',
      );
    return pass(title, `${file} (integrity ok)`);
  } catch (e) {
    return fail(title, `${file} cannot be read as a database (${messageOf(e)})`, restore);
  }
}

/** The newest copy in `<home>/backups` (rotating backups); "none yet" is not a failure. */
export async function backupCheck(home: string): Promise<Check> {
  const title = 'Last backup';
  const folder = backupsFolder(home);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return pass(title, 'none yet');
  }
  let newest: { name: string; at: Date } | null = null;
  for (const name of names) {
    try {
      const s = await stat(join(folder, name));
      if (s.isFile() && (!newest || s.mtime > newest.at)) newest = { name, at: s.mtime };
    } catch {
      /* removed while we looked */
    }
  }
  return newest
    ? pass(title, `${join(folder, newest.name)} (${newest.at.toISOString()})`)
    : pass(title, 'none yet');
}

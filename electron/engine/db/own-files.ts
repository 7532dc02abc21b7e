import { statement } from './statements';
import type Database from 'better-sqlite3';
import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * Dubdesk's own results by what they are on disk (device and inode), not by the path they were written
 * under: an output folder reached through a symlink, or a watched folder added under another path, shows
 * the same files under other names, and a dub of a dub is paid for like any other.
 */
export async function fileIdOf(path: string): Promise<string | null> {
  const info = await stat(path, { bigint: true }).catch(() => null);
  return info?.isFile() ? fileIdFrom(info) : null;
}

export const fileIdFrom = (info: BigIntStats): string => `${info.dev}:${info.ino}`;

export async function recordOwnFile(db: Database.Database, path: string): Promise<void> {
  const id = await fileIdOf(path);
  if (id) statement(db, `INSERT OR REPLACE INTO own_files (file_id, path) VALUES (?, ?)`).run(id, path);
}

/** The paths among `paths` that are one of Dubdesk's results, under whatever name they are reached. */
export async function ownFilesAmong(db: Database.Database, paths: readonly string[]): Promise<Set<string>> {
  const own = new Set<string>();
  const query = statement(db, `SELECT 1 FROM own_files WHERE file_id = ?`);
  for (const path of paths) {
    const id = await fileIdOf(path);
    if (id && query.get(id) !== undefined) own.add(path);
  }
  return own;
}

import { statement } from './statements';
import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ContractError } from '../../../shared/contract/errors';
import { ContentHashes, hashFile } from './content-hashes';
import { fileIdFrom } from './own-files';

/**
 * A result just saved, from one look at it and in one transaction: Dubdesk's own file by device and inode
 * (`own_files`: known under any path), and its content (`outputs.content_hash`): a copy of a result
 * (`cp out/s6.de.mp4 in/`) is a new file (a new inode), so `own_files` does not know it, but its bytes are
 * the result's. `hash`: taken as it downloaded (then the file is not read again).
 */
export async function recordResult(db: Database.Database, path: string, hash?: string): Promise<void> {
  const info = await stat(path, { bigint: true }).catch(() => null);
  if (!info?.isFile()) return;
  const size = Number(info.size);
  // The time as a plain stat gives it (what every other look at a file records): milliseconds and fraction.
  const mtimeMs = Number(info.mtimeNs / 1_000_000n) + Number(info.mtimeNs % 1_000_000n) / 1e6;
  const hashes = new ContentHashes(db);
  const content = hash ?? hashes.known(path, size, mtimeMs) ?? (await hashFile(path, size));
  let record = recorders.get(db);
  if (!record) {
    const own = statement(db, `INSERT OR REPLACE INTO own_files (file_id, path) VALUES (?, ?)`);
    const outputs = statement(db, `UPDATE outputs SET content_hash = ? WHERE path = ?`);
    record = db.transaction((fileId: string, p: string, s: number, m: number, h: string) => {
      own.run(fileId, p);
      hashes.remember(p, s, m, h);
      outputs.run(h, p);
    });
    recorders.set(db, record);
  }
  record.immediate(fileIdFrom(info), path, size, mtimeMs, content);
}

const recorders = new WeakMap<
  Database.Database,
  Database.Transaction<(fileId: string, path: string, size: number, mtimeMs: number, hash: string) => void>
>();

const Found = z.object({ hash: z.string(), path: z.string() });

/**
 * The result (its path now) whose content is `hash`, if Dubdesk saved one. Not when that content was taken
 * as a source too (a result dubbed on purpose, or a service that sent the upload back as it was): it is a
 * source then, and paying once for a source's content is the job of the usual checks (copies, duplicates).
 */
export function resultWithContent(db: Database.Database, hash: string): string | null {
  return resultsWithContents(db, [hash]).get(hash) ?? null;
}

/** `resultWithContent` for many contents in one query: content -> the first result recorded with it. */
export function resultsWithContents(db: Database.Database, hashes: readonly string[]): Map<string, string> {
  if (hashes.length === 0) return new Map();
  const rows = Found.array().parse(
    statement(
      db,
      `SELECT content_hash AS hash, path, min(rowid) FROM outputs
         WHERE content_hash IN (SELECT value FROM json_each(?)) AND done = 1
           AND NOT EXISTS (SELECT 1 FROM jobs WHERE source_hash = outputs.content_hash)
         GROUP BY content_hash`,
    ).all(JSON.stringify(hashes)),
  );
  return new Map(rows.map((r) => [r.hash, r.path]));
}

/** What a copy of a result is told, in a watched folder and at `add` alike; `how`: the way to dub it anyway. */
export function copyOfResult(path: string, result: string, how: string): ContractError {
  return {
    code: 'conflict',
    message: `${path} is a copy of Dubdesk's result ${basename(result)}; not dubbed`,
    remedy: `To dub it on purpose (charged), ${how}.`,
  };
}

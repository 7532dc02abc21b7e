import { statement } from './statements';
import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ContractError } from '../../../shared/contract/errors';
import { ContentHashes } from './content-hashes';

/**
 * Dubdesk's results by content: a copy of a result (`cp out/s6.de.mp4 in/`) is a new file (a new inode),
 * so `own_files` does not know it, but its bytes are the result's. Recorded once a result is on disk.
 */
export async function recordResultContent(db: Database.Database, path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return;
  const hash = await new ContentHashes(db).of(path, info.size, info.mtimeMs);
  statement(db, `UPDATE outputs SET content_hash = ? WHERE path = ?`).run(hash, path);
}

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

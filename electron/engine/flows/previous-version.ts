import { rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { JobRow, JobStore } from '../db/jobs';
import { recordOwnFile } from '../db/own-files';
import { makeFolder } from '../files/make-folder';
import { freeName } from '../outputs/naming';

/** The folder, beside a result, where the results of an earlier version of the same source go. */
export const PREVIOUS_FOLDER = 'previous';

/**
 * A later version of a source (a re-export of a watched file, a file changed and dubbed again) takes the
 * plain result names: what an earlier job of the same path saved under `wanted` is moved to `previous/`
 * beside it (with a number inside `previous/` only if that name is taken too), and its record follows it.
 * Nothing is left beside the new result as `(2)`. A file of another source under that name stays put.
 * The same goes for the results a copy job linked under this source's names (a duplicate dubbed again on
 * purpose): the new dub takes the plain names, the links move aside.
 */
export async function movePreviousVersion(store: JobStore, r: JobRow, wanted: string): Promise<void> {
  const earlier = store.db
    .prepare(
      `SELECT 1 FROM outputs o JOIN jobs j ON j.id = o.job_id
        WHERE o.path = ? AND o.done = 1 AND j.id < ? AND j.source = ? AND j.source_kind = 'file'
          AND (j.reuse_results = 1 OR j.source_hash IS NULL OR ? IS NULL OR j.source_hash <> ?)
        LIMIT 1`,
    )
    .get(wanted, r.id, r.source, r.source_hash, r.source_hash);
  if (!earlier) return;
  const info = await stat(wanted).catch(() => null);
  if (!info?.isFile()) return;
  const folder = join(dirname(wanted), PREVIOUS_FOLDER);
  await makeFolder(folder);
  const moved = await freeName(folder, basename(wanted));
  await rename(wanted, moved);
  store.db.prepare(`UPDATE outputs SET path = ? WHERE path = ?`).run(moved, wanted);
  await recordOwnFile(store.db, moved);
}

import { rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { JobRow, JobStore } from '../db/jobs';
import { recordOwnFile } from '../db/own-files';
import { makeFolder } from '../files/make-folder';
import { freeName } from '../outputs/naming';

/** The folder, beside a result, where the results of an earlier dub of the same source go. */
export const PREVIOUS_FOLDER = 'previous';

/** Whether a result lies in a `previous/` folder: moved aside, no longer anybody's current result. */
export const isMovedAside = (path: string): boolean => basename(dirname(path)) === PREVIOUS_FOLDER;

/**
 * A later dub of a source takes the plain result names: what an earlier job of the same path saved under
 * `wanted` is moved to `previous/` beside it (with a number inside `previous/` only if that name is taken
 * too), and its record follows it. Nothing is left beside the new result as `(2)`. That holds whatever made
 * the new dub: a later version of the file (a re-export, a file changed), the same content dubbed again on
 * purpose (`--again`, "Dub again"), or a duplicate dubbed again (the results a copy job linked under this
 * source's names move aside). A file of another source under that name stays put. A language-independent
 * output of the same content is shared before it gets here (see `sourceOutputs`), so siblings of one source
 * never move each other's files.
 */
export async function movePreviousVersion(store: JobStore, r: JobRow, wanted: string): Promise<void> {
  const earlier = store.db
    .prepare(
      `SELECT 1 FROM outputs o JOIN jobs j ON j.id = o.job_id
        WHERE o.path = ? AND o.done = 1 AND j.id < ? AND j.source = ? AND j.source_kind = 'file'
        LIMIT 1`,
    )
    .get(wanted, r.id, r.source);
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

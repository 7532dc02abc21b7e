import { MAX_CONCURRENCY } from '../../../../shared/contract/settings';
import { MAY_BE_OFF_LINK } from '../off-link-migration';
import { NOT_WORKABLE } from './rows';

/**
 * How far ahead of the queue's order an upload may jump for being small, within one batch: a batch is
 * queued smallest first in runs of this many jobs (`enqueueBatch`), so the first result comes back after the
 * smallest file's upload, and a large file waits for at most this many smaller ones. The queue's order
 * (`queue_order`), which the user may change, is what the worker then follows.
 */
export const SMALL_FIRST_WINDOW = 256;

/**
 * A due submit step of `j` that sends no file over the user's link: a copy of results already made, a dub
 * of a URL (the service fetches it), or upload-once's next language once a dub of the same file has
 * completed (it is made from the service's copy, as `planUploadOnce` decides: same path, size and time).
 * It takes no upload slot, so the link stays full, and it never waits behind another file's upload. (Should
 * the service refuse the copy's link, that one step uploads after all, beside the others.)
 */
const OFF_LINK = `(
    (j.reuse_results = 1 AND j.create_pending = 0) OR j.source_kind = 'url'
    OR (j.api = 'v2' AND j.source_kind = 'file' AND j.upload_once = 1 AND j.link_refused = 0
      AND EXISTS (SELECT 1 FROM jobs o WHERE o.source = j.source AND o.id != j.id AND o.api = 'v2'
        AND o.source_kind = 'file' AND o.source_bytes = j.source_bytes AND o.source_mtime = j.source_mtime
        AND o.audio_track = j.audio_track
        AND o.remote_id IS NOT NULL AND o.remote_status = 5))
  )`;

/** A due job of `step` (the step written into the SQL: see `dueQuery`), over the table as `t`. */
const dueWhere = (step: 'submit' | 'fetch', t = 'j') =>
  `${t}.step IN ('submit', 'fetch') AND ${t}.step = '${step}' AND ${t}.next_run_at <= ? AND ${t}.lease_token IS NULL
        AND ${t}.pause_requested = 0 AND ${t}.state NOT IN ${NOT_WORKABLE} AND ${t}.service IN (?, '')`;

/**
 * The jobs due at one step, soonest first, each with `off_link` (1 or 0). The step is written into the SQL
 * and the LIMIT is a constant (the highest concurrency the settings allow; the caller takes what it needs):
 * SQLite 3.5x re-prepares a statement on every run when a bound value could change its plan (a bound step
 * against the partial index, a bound LIMIT, an ORDER BY over a bound equality), and better-sqlite3 then
 * builds a new row function with `Function()` each time. Measured on the bench's 300 jobs: ~0.2 ms of
 * SQLite per job, plus the JIT compiling every new function. The index's own `step IN (...)` term is
 * repeated: SQLite uses a partial index only when the query names its condition.
 *
 * Uploads are asked in three parts (`JobLeases.dueUploads` puts them together): the first uploads in the
 * queue's order (`dueQuery('submit')`), those off the link among the next `SMALL_FIRST_WINDOW`
 * (`offLinkDueQuery`: they go first, they never wait for the link), and where that window ends
 * (`windowEndQuery`, asked only when some are off the link).
 */
export function dueQuery(step: 'submit' | 'fetch'): string {
  if (step === 'fetch')
    return `SELECT id, 0 AS off_link FROM (
      SELECT id, next_run_at FROM jobs j WHERE ${dueWhere(step)} ORDER BY next_run_at, id LIMIT ${SMALL_FIRST_WINDOW}
    ) ORDER BY next_run_at, id LIMIT ${MAX_CONCURRENCY}`;
  return `
    SELECT j.id, ${OFF_LINK} AS off_link FROM jobs j INDEXED BY jobs_submit_order
    WHERE j.step = 'submit' AND ${dueWhere(step)} ORDER BY j.queue_order, j.id LIMIT ${MAX_CONCURRENCY}`;
}

/**
 * The uploads off the link, in the queue's order, among the first `SMALL_FIRST_WINDOW` due that may be: a
 * walk of the partial index of those (a batch of files to one language has none: nothing is read).
 */
export function offLinkDueQuery(): string {
  const mayBe = MAY_BE_OFF_LINK.replace(/(\w+) =/g, 'c.$1 =');
  return `
    SELECT j.id, j.queue_order FROM (
      SELECT c.id FROM jobs c INDEXED BY jobs_submit_off_link
      WHERE c.step = 'submit' AND ${mayBe} AND ${dueWhere('submit', 'c')}
      ORDER BY c.queue_order LIMIT ${SMALL_FIRST_WINDOW}
    ) d JOIN jobs j ON j.id = d.id
    WHERE ${OFF_LINK} ORDER BY j.queue_order, j.id LIMIT ${MAX_CONCURRENCY}`;
}

/** The queue's place of the last of the next `SMALL_FIRST_WINDOW` due uploads (null: none is due). */
export function windowEndQuery(): string {
  return `
    SELECT max(queue_order) AS end FROM (
      SELECT j.queue_order FROM jobs j INDEXED BY jobs_submit_order
      WHERE j.step = 'submit' AND ${dueWhere('submit')} ORDER BY j.queue_order LIMIT ${SMALL_FIRST_WINDOW})`;
}

/** The soonest due job of one step: the index's order, first row (a constant step, as in `dueQuery`). */
export function nextDueQuery(step: 'submit' | 'fetch'): string {
  return `
    SELECT next_run_at AS t FROM jobs
    WHERE step IN ('submit', 'fetch') AND step = '${step}' AND lease_token IS NULL
      AND pause_requested = 0 AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')
    ORDER BY next_run_at LIMIT 1`;
}

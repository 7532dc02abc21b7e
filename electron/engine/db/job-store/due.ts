import { MAX_CONCURRENCY } from '../../../../shared/contract/settings';
import { NOT_WORKABLE } from './rows';

/**
 * How far ahead of the queue's order an upload may jump for being small: the next this many due jobs (a
 * batch's worth) go smallest first. The first result then comes back after the smallest file's upload
 * instead of the first-added one's, while the link stays full all the same; and a large file waits for at
 * most this many smaller ones added after it, never for ever. The window is read through the due index,
 * so the cost of a claim does not grow with the queue.
 */
export const SMALL_FIRST_WINDOW = 256;

/**
 * The jobs due at one step, soonest first (uploads: smallest first within the window above). The step is written into the SQL and the LIMIT is a constant
 * (the highest concurrency the settings allow; the caller takes what it needs): SQLite 3.5x re-prepares a
 * statement on every run when a bound value could change its plan (a bound step against the partial index,
 * a bound LIMIT, an ORDER BY over a bound equality), and better-sqlite3 then builds a new row function with
 * `Function()` each time. Measured on the bench's 300 jobs: ~0.2 ms of SQLite per job, plus the JIT
 * compiling every new function. The index's own `step IN (...)` term is repeated: SQLite uses a partial
 * index only when the query names its condition.
 */
export function dueQuery(step: 'submit' | 'fetch'): string {
  const due = `
      SELECT id, source_bytes, next_run_at FROM jobs
      WHERE step IN ('submit', 'fetch') AND step = '${step}' AND next_run_at <= ? AND lease_token IS NULL
        AND pause_requested = 0 AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')
      ORDER BY next_run_at, id LIMIT ${SMALL_FIRST_WINDOW}`;
  // Uploads: the smallest source first among the next due ones (see SMALL_FIRST_WINDOW).
  const order = step === 'submit' ? 'source_bytes, next_run_at, id' : 'next_run_at, id';
  return `SELECT id FROM (${due}) ORDER BY ${order} LIMIT ${MAX_CONCURRENCY}`;
}

/** The soonest due job of one step: the index's order, first row (a constant step, as in `dueQuery`). */
export function nextDueQuery(step: 'submit' | 'fetch'): string {
  return `
    SELECT next_run_at AS t FROM jobs
    WHERE step IN ('submit', 'fetch') AND step = '${step}' AND lease_token IS NULL
      AND pause_requested = 0 AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')
    ORDER BY next_run_at LIMIT 1`;
}

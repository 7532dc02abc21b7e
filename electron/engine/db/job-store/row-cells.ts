import { JobRow } from './rows';

/** Rows remembered as last parsed: about the jobs being worked at once, and then some. */
const KEPT = 256;
const SHAPE = JobRow.shape;
const COLUMNS = Object.keys(SHAPE) as (keyof typeof SHAPE)[];

/** The last raw cells of a job's row, and what they parsed to. */
const last = new Map<unknown, { raw: Record<string, unknown>; row: JobRow }>();

/**
 * `JobRow.parse`, cell by cell against the last parse of the same job: a job's row is read again at each
 * step, and differs from the last read in a few cells (its state, its times). Those are parsed by their own
 * schemas; the others are the values already parsed from the very same cells. Each column's schema looks at
 * its cell alone, so the row is what `JobRow.parse` would give, and every cell that changed, whoever wrote
 * it, is checked again. A cell that fails is left to `JobRow.parse`, which throws its usual error.
 */
export function parseJobRow(raw: unknown): JobRow {
  if (typeof raw !== 'object' || raw === null) return JobRow.parse(raw);
  const cells = raw as Record<string, unknown>;
  const before = last.get(cells.id);
  let row: JobRow;
  if (!before) row = JobRow.parse(raw);
  else {
    const fresh: Record<string, unknown> = { ...before.row };
    for (const column of COLUMNS) {
      if (cells[column] === before.raw[column]) continue;
      const parsed = SHAPE[column].safeParse(cells[column]);
      if (!parsed.success) return JobRow.parse(raw);
      fresh[column] = parsed.data;
    }
    row = fresh as JobRow;
  }
  last.delete(cells.id);
  last.set(cells.id, { raw: cells, row });
  if (last.size > KEPT) last.delete(last.keys().next().value);
  return { ...row, abandoned_remote_ids: [...row.abandoned_remote_ids] };
}

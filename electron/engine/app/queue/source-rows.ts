import type { JobView, SourceRow } from '../../../../shared/contract/jobs';
import type { JobRow } from '../../db/jobs';

/** A version of a source: its content (else its size and time, for jobs made before contents were kept). */
const versionOf = (r: JobRow) => r.source_hash ?? `${r.source_bytes}:${r.source_mtime}`;

/**
 * One row of the queue: a source and its jobs. A path dubbed again with new content (a watched file
 * re-exported, a file added again after a change) is its newest version: its chips and its length; the jobs of
 * earlier versions go beside them, not among them (two chips per language under the old length).
 */
export function sourceRow(
  source: string,
  rows: readonly JobRow[],
  views: ReadonlyMap<number, JobView>,
): SourceRow {
  const newest = rows.reduce<JobRow | undefined>((a, r) => (!a || r.id > a.id ? r : a), undefined);
  const current = newest ? versionOf(newest) : null;
  const viewsOf = (list: readonly JobRow[]) =>
    list.map((r) => views.get(r.id)).filter((v): v is JobView => v !== undefined);
  const mine = rows.filter((r) => versionOf(r) === current);
  const first = mine[0] ?? rows[0];
  return {
    source,
    sourceKind: first?.source_kind ?? 'file',
    sourceName: newest?.source_name ?? first?.source_name ?? source,
    durationSeconds: first?.duration ?? null,
    jobs: viewsOf(mine),
    earlier: viewsOf(rows.filter((r) => versionOf(r) !== current)),
  };
}

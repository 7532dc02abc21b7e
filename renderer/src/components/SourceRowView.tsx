import { memo } from 'react';
import type { JobView, SourceRow } from '../../../shared/contract/jobs';
import { baseName, formatLength, withoutPathPrefix } from '../format';
import { languageName } from '../../../shared/languages';
import { rowDone, stateWords } from '../store/derived';
import { JobChip } from './JobChip';
import { JobProblem, problemGroups } from './JobProblem';

interface Props {
  row: SourceRow;
  index: number;
  selected: boolean;
  cursor: boolean;
  /** In the cursor's row: the chip or button the arrows are on; null elsewhere or on the row itself. */
  activeItem: number | null;
  /** A chip or button got the focus (a click, the job panel giving it back): the arrows go on from it. */
  onItemFocus: (index: number, item: number) => void;
  openJobId: number | null;
  /** The whole queue is paused (its chips say so). */
  queuePaused: boolean;
  onSelect: (index: number, mode: 'only' | 'toggle' | 'range') => void;
  onOpenJob: (id: number) => void;
  onRetry: (jobs: readonly JobView[]) => void;
}

/**
 * A row's height in the stylesheet, exact, not near: each row measured at another height than its estimate
 * re-laid the whole list out (its length and every slot after it) on every frame of a scroll through rows
 * not seen yet (an estimate 1 px over made the 100,000-job queue's scroll frames 1.3x a short one's).
 * At least 48 (min-height, border inside); else its lines: padding 8 + 8, the chips' line 28, the border...
 */
const ROW_PX = 48;
const LINES_PX = 45;
/**
 * ...and per problem group a line under it: its margin (4) and its set line height (16). A wrapped problem,
 * one with a Retry button or chips on two lines are taller: the measurement corrects those.
 */
const PROBLEM_LINE_PX = 20;
const estimates = new WeakMap<SourceRow, number>();

/**
 * The height a row will have, before it is measured: the virtualizer makes the rows that fit by these, so
 * an estimate too small for rows with problem lines made a third more rows than the window shows.
 */
export function estimateRowHeight(row: SourceRow | null): number {
  if (!row) return ROW_PX;
  let px = estimates.get(row);
  if (px === undefined) {
    const problems = rowDone(row) ? 0 : problemGroups(row.jobs).length;
    const lines = problems + (row.earlier.length > 0 ? 1 : 0) + (row.package ? 1 : 0);
    px = Math.max(ROW_PX, LINES_PX + lines * PROBLEM_LINE_PX);
    estimates.set(row, px);
  }
  return px;
}

/**
 * The jobs of a file's earlier content, in a line under its chips: "Earlier version: Spanish and French
 * done; its results are in previous/".
 */
function earlierWords(jobs: readonly JobView[]): string {
  const byState = new Map<string, string[]>();
  for (const j of jobs) {
    const words = stateWords(j.state);
    byState.set(words, [...(byState.get(words) ?? []), languageName(j.destLang)]);
  }
  const parts = [...byState].map(([words, langs]) => `${langs.join(', ')} ${words}`);
  const done = jobs.some((j) => j.state === 'completed');
  return `Earlier version: ${parts.join('; ')}${done ? '; its results are in previous/' : ''}`;
}

/**
 * The source's one file with every language, in words: where it is, or where it stands. The row is the
 * source: the engine's words name it by its whole path, which would fill the row's one line before the reason.
 */
export function packageWords(p: NonNullable<SourceRow['package']>, source: string): string {
  const langs = p.languages.map(languageName).join(', ');
  switch (p.state) {
    case 'done':
      return `Package: ${baseName(p.path ?? '')}${langs ? ` (original, ${langs})` : ''}`;
    case 'waiting':
      // Words while waiting: its disk is full ("disk full: free N MiB in DIR"), the folder by its name (the
      // line is one line; its title has the whole path); it is made once there is room.
      return p.error
        ? `Package (${p.format.toUpperCase()}) waits for room: ${p.error.message.replace(/ in (.+)$/, (_, dir: string) => ` in ${baseName(dir)}`)}`
        : `Package (${p.format.toUpperCase()}): made once every language is done`;
    case 'making':
      return `Package (${p.format.toUpperCase()}): being made…`;
    case 'failed':
      return `Package failed: ${withoutPathPrefix(p.error?.message ?? 'unknown error', source).replace(`${source} `, 'the file ')}`;
  }
}

/**
 * A finished row's few words: "all done", or, when a dub's QC failed or is worth a look, those counted
 * ("done · 1 QC failed"), so a row scanned among hundreds does not read as fine when one of its dubs is not.
 */
export function doneWords(jobs: readonly JobView[]): { words: string; verdict: 'pass' | 'warn' | 'fail' } {
  const failed = jobs.filter((j) => j.qc?.verdict === 'fail').length;
  const look = jobs.filter((j) => j.qc?.verdict === 'warn').length;
  if (failed === 0 && look === 0) return { words: 'all done', verdict: 'pass' };
  const parts = ['done'];
  if (failed > 0) parts.push(`${failed} QC failed`);
  if (look > 0) parts.push(`${look} worth a look`);
  return { words: parts.join(' · '), verdict: failed > 0 ? 'fail' : 'warn' };
}

/** The id of a row's item (its chips, then its Retry buttons): what the grid's active descendant names. */
export const itemId = (index: number, item: number) => `row-${index}-item-${item}`;

/** How many items the arrows go through in a row: one chip per language, then one Retry per failure. */
export function rowItemCount(row: SourceRow): number {
  if (rowDone(row)) return row.jobs.length;
  return row.jobs.length + problemGroups(row.jobs).filter((g) => g.jobs[0]?.state === 'failed').length;
}

/** A source and one chip per language; problems in words underneath; one quiet line once all are done. */
export const SourceRowView = memo(function SourceRowView(props: Props) {
  const { row, index, selected, cursor, openJobId, onSelect, onOpenJob, onRetry } = props;
  const { activeItem, onItemFocus, queuePaused } = props;
  const done = rowDone(row);
  const problems = done ? [] : problemGroups(row.jobs);
  const summary = done ? doneWords(row.jobs) : null;
  let retries = row.jobs.length;
  return (
    <div
      role="row"
      id={`row-${index}`}
      aria-rowindex={index + 1}
      aria-selected={selected}
      className={`source-row ${done ? 'row-done' : ''} ${selected ? 'row-selected' : ''} ${cursor ? 'row-cursor' : ''}`}
      onClick={(e) => onSelect(index, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'only')}
    >
      <div role="gridcell" className="cell-select">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select ${row.sourceName}`}
          tabIndex={-1}
          onClick={(e) => {
            e.stopPropagation();
            onSelect(index, e.shiftKey ? 'range' : 'toggle');
          }}
          onChange={() => undefined}
        />
      </div>
      <div role="gridcell" className="cell-name">
        <span className="source-name" title={row.source}>
          {row.sourceKind === 'url' && (
            <span className="kind-tag" aria-label="URL">
              URL
            </span>
          )}
          {row.sourceName}
        </span>
      </div>
      <div role="gridcell" className="cell-duration num">
        {row.durationSeconds !== null ? formatLength(row.durationSeconds) : '—'}
      </div>
      <div role="gridcell" className="cell-chips">
        {summary && (
          <span className={`done-summary done-qc-${summary.verdict}`}>
            <span aria-hidden="true">{summary.verdict === 'pass' ? '✓ ' : '⚠ '}</span>
            {summary.words}
          </span>
        )}
        {row.jobs.map((j, k) => (
          <JobChip
            key={j.id}
            job={j}
            open={openJobId === j.id}
            queuePaused={queuePaused}
            onOpen={onOpenJob}
            id={itemId(index, k)}
            active={activeItem === k}
            onFocus={() => onItemFocus(index, k)}
          />
        ))}
      </div>
      {(problems.length > 0 || row.earlier.length > 0 || row.package) && (
        <div role="gridcell" className="cell-problems">
          {row.earlier.length > 0 && <p className="earlier-version">{earlierWords(row.earlier)}</p>}
          {row.package && (
            <p
              className={`package-line package-${row.package.state}${row.package.error ? ' package-said' : ''}`}
              title={row.package.path ?? row.package.error?.message ?? undefined}
            >
              {packageWords(row.package, row.source)}
            </p>
          )}
          {problems.map((g) => {
            const item = g.jobs[0]?.state === 'failed' ? retries++ : null;
            return (
              <JobProblem
                key={g.key}
                group={g}
                onRetry={onRetry}
                retry={
                  item === null
                    ? null
                    : {
                        id: itemId(index, item),
                        active: activeItem === item,
                        onFocus: () => onItemFocus(index, item),
                      }
                }
              />
            );
          })}
        </div>
      )}
    </div>
  );
});

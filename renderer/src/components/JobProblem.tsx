import type { JobView } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { waitingWords } from '../store/derived';
import { useNow } from './useNow';
import { ProblemWords } from './ProblemWords';

/** Jobs of one row with the same trouble, shown once ("Spanish, French: …"). */
export interface ProblemGroup {
  key: string;
  jobs: readonly JobView[];
}

/** A row's troubles, grouped by what they say: failures first, then waits. */
export function problemGroups(jobs: readonly JobView[]): ProblemGroup[] {
  const groups = new Map<string, JobView[]>();
  for (const j of jobs) {
    let key: string | null = null;
    if (j.state === 'failed' && j.error) key = `failed:${j.error.message}:${j.error.remedy ?? ''}`;
    else if (j.waiting) key = `waiting:${j.waiting.message}:${j.waiting.retryAt ?? ''}:${j.waiting.attempt}`;
    if (key === null) continue;
    const list = groups.get(key);
    if (list) list.push(j);
    else groups.set(key, [j]);
  }
  return [...groups].map(([key, list]) => ({ key, jobs: list })).sort((a, b) => a.key.localeCompare(b.key));
}

/** Under a row: a failure in words with its remedy and a Retry, or a wait with its countdown. */
export function JobProblem({
  group,
  onRetry,
  retry,
}: {
  group: ProblemGroup;
  onRetry: (jobs: readonly JobView[]) => void;
  /** Its Retry as one of the row's items for the queue's arrows (see SourceRowView). */
  retry: { id: string; active: boolean; onFocus: () => void } | null;
}) {
  const first = group.jobs[0] as JobView;
  const now = useNow(1000, first.waiting?.retryAt != null);
  const languages = group.jobs.map((j) => languageName(j.destLang)).join(', ');
  if (first.state === 'failed' && first.error) {
    return (
      <div className="job-problem failed">
        <span className="problem-lang">
          <span aria-hidden="true">✗ </span>
          {languages}:
        </span>
        <span className="problem-text">
          <ProblemWords message={first.error.message} remedy={first.error.remedy} />
        </span>
        <button
          type="button"
          className={`small ${retry?.active ? 'item-active' : ''}`}
          id={retry?.id}
          tabIndex={-1}
          data-item=""
          onFocus={retry?.onFocus}
          aria-label={`Retry ${first.sourceName} into ${languages}`}
          onClick={(e) => {
            e.stopPropagation();
            onRetry(group.jobs);
          }}
        >
          Retry
        </button>
      </div>
    );
  }
  const waiting = waitingWords(first, now);
  if (!waiting) return null;
  return (
    <div className="job-problem waiting">
      <span className="problem-lang">
        <span aria-hidden="true">↻ </span>
        {languages}:
      </span>
      <span className="problem-text num">{waiting}</span>
    </div>
  );
}

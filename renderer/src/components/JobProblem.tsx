import type { JobView } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { waitingWords } from '../store/derived';
import { useNow } from './useNow';

/** Under a row: a failed job's error in words with its remedy and a Retry, or a waiting job's countdown. */
export function JobProblem({ job, onRetry }: { job: JobView; onRetry: (job: JobView) => void }) {
  const now = useNow(1000, job.waiting?.retryAt != null);
  if (job.state === 'failed' && job.error) {
    return (
      <div className="job-problem failed">
        <span className="problem-lang">
          <span aria-hidden="true">✗ </span>
          {languageName(job.destLang)}:
        </span>
        <span className="problem-text">
          {job.error.message}
          {job.error.remedy && <span className="remedy"> {job.error.remedy}</span>}
        </span>
        <button
          type="button"
          className="small"
          aria-label={`Retry ${job.sourceName} into ${languageName(job.destLang)}`}
          onClick={(e) => {
            e.stopPropagation();
            onRetry(job);
          }}
        >
          Retry
        </button>
      </div>
    );
  }
  const waiting = waitingWords(job, now);
  if (!waiting) return null;
  return (
    <div className="job-problem waiting">
      <span className="problem-lang">
        <span aria-hidden="true">↻ </span>
        {languageName(job.destLang)}:
      </span>
      <span className="problem-text num">{waiting}</span>
    </div>
  );
}

import type { JobView } from '../../../shared/contract/jobs';
import { CHIP_SYMBOL, chipKind, stateWords } from '../store/derived';

/** One language of a source: a symbol, the code, and the percent while working; opens the job panel. */
export function JobChip({
  job,
  open,
  onOpen,
}: {
  job: JobView;
  open: boolean;
  onOpen: (id: number) => void;
}) {
  const kind = chipKind(job.state);
  const working = kind === 'working';
  const pct = `${Math.floor(job.progress)}%`;
  const label = `${job.destLang}: ${stateWords(job.state)}${working ? ` ${pct}` : ''}${job.waiting ? ', waiting to retry' : ''}`;
  return (
    <button
      type="button"
      className={`chip chip-${kind} ${open ? 'chip-open' : ''} ${job.waiting ? 'chip-waiting' : ''}`}
      aria-label={`${label}. Open job`}
      aria-pressed={open}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        onOpen(job.id);
      }}
    >
      <span className="chip-symbol" aria-hidden="true">
        {CHIP_SYMBOL[kind]}
      </span>
      <span className="chip-lang">{job.destLang}</span>
      {working && (
        <span className="chip-pct num" aria-hidden="true">
          {pct}
        </span>
      )}
      {working && (
        <span className="chip-bar" aria-hidden="true" style={{ width: `${Math.min(100, job.progress)}%` }} />
      )}
    </button>
  );
}

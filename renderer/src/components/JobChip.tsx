import type { JobView } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { baseName } from '../format';
import { CHIP_SYMBOL, chipKind, chipWaitWords, stateWords } from '../store/derived';
import { pausedNow } from '../store/views';
import { QC_MARK, QC_WORDS } from './QcSection';

/**
 * One language of a source: a symbol, the code, the percent while working, "copied" when its results were
 * linked from a dub already made; opens the job panel. Not a Tab stop of its own: the queue's arrows reach
 * it (`id` is what the grid's active descendant names), and a click or focus puts the arrows on it.
 */
export function JobChip({
  job,
  open,
  queuePaused,
  onOpen,
  id,
  active,
  onFocus,
}: {
  job: JobView;
  open: boolean;
  /**
   * The whole queue is paused: nothing moves, so an open job shows as paused, not as working at 0%. Read by
   * the row, not by each chip: a screenful of rows is ~70 chips, each a store subscription made and dropped
   * while scrolling.
   */
  queuePaused: boolean;
  onOpen: (id: number) => void;
  id: string;
  /** The queue's arrows are on it. */
  active: boolean;
  onFocus: () => void;
}) {
  const paused = pausedNow(job.state, queuePaused);
  const kind = paused ? 'paused' : chipKind(job.state);
  const working = kind === 'working';
  const pct = `${Math.floor(job.progress)}%`;
  // A copy under a new name got its results linked from a dub already made, at no charge.
  const copied = job.copiedFrom ? baseName(job.copiedFrom) : null;
  // QC of a finished dub: a mark when it is worth a look or fails, its first problem in words.
  const qc = job.state === 'completed' ? (job.qc ?? null) : null;
  const qcWords = qc
    ? `, ${QC_WORDS[qc.verdict]}${qc.problems[0] ? ` (${qc.problems[0].message})` : ''}`
    : '';
  const words = paused
    ? `paused${job.state === 'paused' ? '' : ' (the queue is paused)'}`
    : `${stateWords(job.state)}${job.waiting ? `, ${chipWaitWords(job.waiting)}` : ''}${copied ? `, copied from ${copied} at no charge` : ''}`;
  // One inline run of text ("○ es 62%"), so the accessible name starts with exactly what the chip shows;
  // as few elements as that takes (a screenful of rows is ~70 chips, made and dropped while scrolling).
  return (
    <button
      type="button"
      id={id}
      tabIndex={-1}
      data-item=""
      className={`chip chip-${kind} ${open ? 'chip-open' : ''} ${job.waiting ? 'chip-waiting' : ''} ${active ? 'item-active' : ''}`}
      aria-pressed={open}
      // Whose file it is, last: a screen reader moving chip to chip hears the file without going back to the row.
      aria-label={`${languageName(job.destLang)}, ${job.destLang}${working ? ` ${pct}` : ''}${copied ? ' copied' : ''}: ${words}${qcWords} (${job.sourceName})`}
      onFocus={onFocus}
      title={
        qc && qc.verdict !== 'pass'
          ? `${QC_WORDS[qc.verdict]}: ${qc.problems.map((p) => p.message).join('; ')}`
          : copied
            ? `Copied from ${copied} at no charge`
            : undefined
      }
      onClick={(e) => {
        e.stopPropagation();
        onOpen(job.id);
      }}
    >
      <span className="chip-symbol" aria-hidden="true">
        {CHIP_SYMBOL[kind]}
      </span>
      {working ? ` ${job.destLang} ` : ` ${job.destLang}`}
      {working && <span className="chip-pct num">{pct}</span>}
      {copied && <span className="chip-note"> copied</span>}
      {qc && QC_MARK[qc.verdict] && (
        <span className={`chip-qc chip-qc-${qc.verdict}`} aria-hidden="true">
          {QC_MARK[qc.verdict]}
        </span>
      )}
      {working && (
        <span className="chip-bar" aria-hidden="true" style={{ width: `${Math.min(100, job.progress)}%` }} />
      )}
    </button>
  );
}

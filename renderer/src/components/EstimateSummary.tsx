import { uploadOnceWords } from '../../../shared/file-share';
import { formatCredits, plural } from '../format';
import { useApp } from '../store';
import { batchWords, estimateTotals } from '../store/estimate';

/** The batch in one line: files x languages = dubs, credits, the balance before and after; red when over. */
export function EstimateSummary() {
  const estimate = useApp((s) => s.estimate);
  const estimating = useApp((s) => s.estimating);
  const again = useApp((s) => s.again);
  const setAgain = useApp((s) => s.setAgain);
  const inputs = useApp((s) => s.inputs.length);
  const to = useApp((s) => s.preset.to.length);
  const committed = useApp((s) => s.totals?.creditsCommitted ?? 0);

  if (!estimate) {
    return (
      <div className="estimate-summary muted" aria-live="polite">
        {estimating
          ? 'Reading files…'
          : inputs === 0
            ? 'Add files to see what the batch costs.'
            : to === 0
              ? 'Pick at least one language to see what the batch costs.'
              : ''}
      </div>
    );
  }
  const t = estimateTotals(estimate, again, committed);
  const doneSources = new Set(estimate.alreadyDone.map((d) => d.source)).size;
  const once = uploadOnceWords(estimate.uploadOnce);
  return (
    <div
      className={`estimate-summary ${t.overBy > 0 ? 'over' : ''}`}
      aria-live="polite"
      data-testid="estimate"
    >
      {estimate.alreadyDone.length > 0 && (
        <div className="already-done">
          <p>
            <span aria-hidden="true">✓ </span>
            {plural(estimate.alreadyDone.length, 'dub')} of {plural(doneSources, 'file')} already done with
            these settings — {again ? 'will be dubbed again (and paid again).' : 'will be skipped.'}
          </p>
          <label className="check-label">
            <input type="checkbox" checked={again} onChange={(e) => setAgain(e.target.checked)} />
            Dub them again
          </label>
        </div>
      )}
      {estimate.alreadyQueued.length > 0 && (
        <p className="muted">
          {plural(estimate.alreadyQueued.length, 'dub is', 'dubs are')} already in the queue — not added
          twice.
        </p>
      )}
      <p className="estimate-line">
        <span className="num" data-testid="estimate-jobs">
          {batchWords(t, plural)}
        </span>
        {' · '}
        <strong className="num" data-testid="estimate-credits" data-credits={t.credits}>
          {formatCredits(t.credits)}
        </strong>
        {estimate.studio && <span className="muted"> (studio: 2×)</span>}
        {estimate.unknownLengthJobs > 0 && (
          <span className="muted"> + {plural(estimate.unknownLengthJobs, 'link')} priced once measured</span>
        )}
      </p>
      {once && (
        <p className="muted num" data-testid="estimate-upload-once">
          {once.charAt(0).toUpperCase() + once.slice(1)}
        </p>
      )}
      <p className="balance-line num">
        {estimate.balance === null ? (
          'Balance unknown (the service did not answer); the batch is checked when it starts.'
        ) : (
          <>
            Balance {formatCredits(estimate.balance)}
            {t.committed > 0 && <> − {formatCredits(t.committed)} queued</>}
            {t.overBy > 0 ? (
              <strong className="over-text">
                {' '}
                <span aria-hidden="true">⚠ </span>short by {formatCredits(t.overBy)}
              </strong>
            ) : (
              <> → {formatCredits(t.after ?? 0)} after</>
            )}
          </>
        )}
      </p>
    </div>
  );
}

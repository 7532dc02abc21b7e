import { useId, useState } from 'react';
import type { JobView } from '../../../shared/contract/jobs';
import type { ContractError } from '../../../shared/contract/errors';
import { useApp, useBridge } from '../store';
import { asError } from '../store/errors';
import { ErrorText } from './ErrorText';

/**
 * "Choose another output folder, then retry": a failed or canceled job's folder, changed in place. What the
 * job already saved moves along (the engine does it), so its results stay in one folder. A completed job is
 * not dubbed again: its files move there, at no charge. The desktop picks the folder with the system dialog;
 * the browser face takes a typed path.
 */
export function RetryElsewhere({ job }: { job: JobView }) {
  const bridge = useBridge();
  const notify = useApp((s) => s.notify);
  const id = useId();
  const [outDir, setOutDir] = useState(job.outDir);
  const [error, setError] = useState<ContractError | null>(null);
  const [busy, setBusy] = useState(false);

  async function retry() {
    setBusy(true);
    try {
      const r = await bridge.retryJobs({ ids: [job.id], outDir: outDir.trim() });
      const skipped = r.skipped[0];
      if (skipped) setError(skipped.error);
      else {
        setError(null);
        notify(
          'info',
          r.moved?.length
            ? `Moved its files to ${outDir.trim()} (already dubbed: nothing is charged again).`
            : `Retrying, saving to ${outDir.trim()}.`,
        );
      }
    } catch (e) {
      setError(asError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="retry-elsewhere">
      <label htmlFor={`${id}-out`}>Save this job to</label>
      <div className="input-with-button">
        <input
          id={`${id}-out`}
          type="text"
          value={outDir}
          aria-invalid={error !== null || undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setOutDir(e.target.value)}
        />
        {bridge.shell === 'electron' && (
          <button
            type="button"
            onClick={() =>
              void bridge.pickFolder().then((p) => {
                if (p) setOutDir(p);
              })
            }
          >
            Choose…
          </button>
        )}
      </div>
      <button
        type="button"
        disabled={busy || outDir.trim() === '' || outDir.trim() === job.outDir}
        onClick={() => void retry()}
      >
        {job.state === 'completed' ? 'Move its files to this folder' : 'Retry into this folder'}
      </button>
      <ErrorText error={error} id={`${id}-error`} />
    </div>
  );
}

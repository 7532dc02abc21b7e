import { useState } from 'react';
import type { ContractError } from '../../../shared/contract/errors';
import { Dialog } from '../components/Dialog';
import { ErrorText } from '../components/ErrorText';
import { useApp } from '../store';
import { queueUsed } from '../store/derived';

/**
 * A first run: nothing chosen yet, and a data folder nobody used (no job, none in the history, no watched
 * folder: `dubdesk dub --sandbox` saves no service, but its queue is there). Try the sandbox, or a key.
 */
export function FirstRun() {
  const configured = useApp((s) => s.settings?.service.configured ?? true);
  // Folders that could not be listed count as none: the Welcome is not held back for ever.
  const used = useApp((s) => queueUsed(s.totals, s.folders ?? (s.foldersError ? [] : null)));
  const save = useApp((s) => s.saveSettings);
  const requestKeyEntry = useApp((s) => s.requestKeyEntry);
  const [skipped, setSkipped] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const open = !configured && used === false && !skipped;

  return (
    <Dialog open={open} title="Welcome to Dubdesk" className="first-run">
      <p>
        Drop videos, pick languages, see what it costs, and come back to finished dubs. How would you like to
        start?
      </p>
      <div className="first-run-choices">
        <button
          type="button"
          className="choice primary"
          onClick={() =>
            void save({ service: { mode: 'sandbox' } }).then((err) => {
              setError(err);
              if (!err) setSkipped(true);
            })
          }
        >
          <strong>Try with the built-in sandbox</strong>
          <span>
            A local stand-in for the service: no account; sandbox credits only, no real money. Dubs are your
            own media back.
          </span>
        </button>
        <button
          type="button"
          className="choice"
          onClick={() => {
            setSkipped(true);
            requestKeyEntry();
          }}
        >
          <strong>Enter API key</strong>
          <span>Use your account on the dubbing service; you can test the key before saving it.</span>
        </button>
      </div>
      <ErrorText error={error} />
    </Dialog>
  );
}

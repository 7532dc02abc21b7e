import { useCallback, useState } from 'react';
import { useApp } from '../store';
import { asError } from '../store/errors';
import { thenSay } from '../../../shared/format';

/**
 * A button's action: busy (the button disabled) while it runs, its failure said as a notice with the
 * contract's words and remedy. `run` is what `onClick` calls; it never throws.
 */
export function useBusyAction(action: () => Promise<void>): { busy: boolean; run: () => void } {
  const notify = useApp((s) => s.notify);
  const [busy, setBusy] = useState(false);
  const run = useCallback(() => {
    setBusy(true);
    void action()
      .catch((e: unknown) => {
        const error = asError(e);
        notify('error', error.remedy ? thenSay(error.message, error.remedy) : error.message);
      })
      .finally(() => setBusy(false));
  }, [action, notify]);
  return { busy, run };
}

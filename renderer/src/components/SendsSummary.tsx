import { sendsWords } from '../../../shared/sends';
import { useApp } from '../store';

/**
 * What the batch sends, under the send choice: "Sends 9.6 MiB (audio) instead of 600 MiB". In the sheet's
 * body, not its footer: a footer line more leaves the body too short at 200% zoom.
 */
export function SendsSummary() {
  const sends = useApp((s) => s.estimate?.sends ?? null);
  if (!sends) return null;
  const words = sendsWords(sends);
  if (!words) return null;
  return (
    <p className="muted num" data-testid="estimate-sends" aria-live="polite">
      {words.charAt(0).toUpperCase() + words.slice(1)}
      {sends.notice ? ` — ${sends.notice}` : ''}
    </p>
  );
}

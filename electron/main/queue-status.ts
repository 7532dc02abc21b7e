/** Words and numbers about the queue that the tray, the taskbar and the close prompt share. */
import type { QueueTotals } from '../../shared/contract/queue';
import { formatSpeed } from '../../shared/format';
import { stateWords } from '../../shared/state-words';

/** The speed as the window says it, or nothing while no bytes move. */
export function speedWords(bytesPerSecond: number | null): string | null {
  return bytesPerSecond && bytesPerSecond > 0 ? formatSpeed(bytesPerSecond) : null;
}

/** Jobs moving bytes right now. */
export const transfers = (t: QueueTotals) => (t.counts.uploading ?? 0) + (t.counts.downloading ?? 0);

/** Work goes on by itself: jobs left, and the queue not paused (by the user, or for credits or the key). */
export function working(t: QueueTotals): boolean {
  const waitingForUser = t.counts.paused ?? 0;
  return t.left - waitingForUser > 0 && t.paused === null;
}

/** One line, in the window's words and numbers: "1,234 left · 3.4 MiB/s", "paused · 12 left", "idle". */
export function statusLine(t: QueueTotals): string {
  if (t.left === 0) return 'idle';
  const parts: string[] = [];
  if (t.paused)
    parts.push(t.paused.reason === 'user' ? stateWords('paused') : `waiting: ${t.paused.message}`);
  else if (t.offline) parts.push('offline');
  parts.push(`${t.left.toLocaleString('en-US')} left`);
  const speed = speedWords(t.bytesPerSecond);
  if (speed && !t.paused) parts.push(speed);
  return parts.join(' · ');
}

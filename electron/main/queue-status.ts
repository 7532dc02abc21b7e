/** Words and numbers about the queue that the tray, the taskbar and the close prompt share. */
import type { QueueTotals } from '../../shared/contract/queue';

export function formatSpeed(bytesPerSecond: number | null): string | null {
  if (!bytesPerSecond || bytesPerSecond <= 0) return null;
  const units = ['B/s', 'KB/s', 'MB/s', 'GB/s'];
  let v = bytesPerSecond;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** Jobs moving bytes right now. */
export const transfers = (t: QueueTotals) => (t.counts.uploading ?? 0) + (t.counts.downloading ?? 0);

/** Work goes on by itself: jobs left, and the queue not paused (by the user, or for credits or the key). */
export function working(t: QueueTotals): boolean {
  const waitingForUser = t.counts.paused ?? 0;
  return t.left - waitingForUser > 0 && t.paused === null;
}

/** One line: "12 left · 3.4 MB/s", "paused · 12 left", "idle". */
export function statusLine(t: QueueTotals): string {
  if (t.left === 0) return 'idle';
  const parts: string[] = [];
  if (t.paused) parts.push(t.paused.reason === 'user' ? 'paused' : `waiting: ${t.paused.message}`);
  else if (t.offline) parts.push('offline');
  parts.push(`${t.left} left`);
  const speed = formatSpeed(t.bytesPerSecond);
  if (speed && !t.paused) parts.push(speed);
  return parts.join(' · ');
}

import { inSendWindow, nextWindowStart, type SendWindow } from '../../../shared/schedule';

/** When the sending window next opens, in ms since the epoch; null while it is open (or there is none). */
export function windowOpensAt(window: SendWindow | null, now: number): number | null {
  if (!window) return null;
  const at = new Date(now);
  return inSendWindow(window, at) ? null : nextWindowStart(window, at).getTime();
}

import type { QueueTotals } from '../../shared/contract/queue';
import type { Settings } from '../../shared/contract/settings';

/** What the desktop shell follows of the engine, and where the app is in its life. */
export interface ShellState {
  /** For the tray, taskbar, power and close prompt. */
  totals: QueueTotals | null;
  /** For the menu's links and the notifications switch. */
  settings: Settings | null;
  /** "Quit after the current uploads" was chosen. */
  quittingAfterUploads: boolean;
  phase: 'running' | 'stopping' | 'stopped';
}

export const newShellState = (): ShellState => ({
  totals: null,
  settings: null,
  quittingAfterUploads: false,
  phase: 'running',
});

/** Total batch progress on the taskbar or dock icon, and on macOS a badge with the jobs left. */
import type { QueueTotals } from '../../shared/contract/queue';

export interface ProgressTarget {
  setProgressBar(
    progress: number,
    options?: { mode: 'none' | 'normal' | 'indeterminate' | 'error' | 'paused' },
  ): void;
}
export interface BadgeTarget {
  setBadgeCount(count?: number): boolean;
}

/**
 * A batch runs from the moment jobs are left until none is: its progress is the share of the most jobs
 * left during it that are finished now (adding jobs mid-batch grows it).
 */
export class BatchProgress {
  private peak = 0;

  update(t: QueueTotals): number | null {
    if (t.left === 0) {
      this.peak = 0;
      return null;
    }
    this.peak = Math.max(this.peak, t.left);
    return (this.peak - t.left) / this.peak;
  }
}

export class TaskbarProgress {
  private readonly batch = new BatchProgress();

  constructor(
    private readonly window: () => ProgressTarget | null,
    private readonly badge: BadgeTarget | null,
  ) {}

  update(t: QueueTotals): void {
    const fraction = this.batch.update(t);
    const win = this.window();
    if (win) {
      if (fraction === null) win.setProgressBar(-1, { mode: 'none' });
      else {
        const mode = t.paused ? 'paused' : t.offline ? 'error' : 'normal';
        // Never exactly 0 while working: 0 would hide the bar on some systems.
        win.setProgressBar(Math.max(fraction, 0.01), { mode });
      }
    }
    this.badge?.setBadgeCount(t.left);
  }

  clear(): void {
    this.window()?.setProgressBar(-1, { mode: 'none' });
    this.badge?.setBadgeCount(0);
  }
}

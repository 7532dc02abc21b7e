import { describe, expect, it } from 'vitest';
import { backupsToRemove } from '../../electron/engine/db/backup-retention';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A backup taken `ago` ms before now. */
const taken = (ago: number) => ({ path: `b-${ago}`, takenAt: NOW - ago });

describe('which backups of the queue are kept', () => {
  it('keeps the newest three of a busy minute, and the one from before it', () => {
    // A batch worked from the command line: every command after a change took one, a few seconds apart.
    const busy = [0, 10_000, 20_000, 30_000, 40_000, 50_000].map(taken);
    const before = taken(2 * HOUR);
    const gone = backupsToRemove([...busy, before], NOW);
    expect(gone.sort()).toEqual(['b-30000', 'b-40000', 'b-50000']);
  });

  it('keeps the newest of each of the last six hours and of each of the last seven days, nothing older', () => {
    const every30min = Array.from({ length: 20 * 48 }, (_, i) => taken(i * 30 * MIN + MIN));
    const gone = new Set(backupsToRemove(every30min, NOW));
    const kept = every30min.filter((b) => !gone.has(b.path)).map((b) => NOW - b.takenAt);
    // The newest three, the newest of hours 0..5 (one of them already among the three), one per day 0..6.
    expect(kept.every((ago) => ago < 7 * DAY)).toBe(true);
    expect(kept.filter((ago) => ago >= DAY)).toHaveLength(6);
    expect(kept.filter((ago) => ago < 6 * HOUR).length).toBeGreaterThanOrEqual(6);
    expect(kept.length).toBeLessThanOrEqual(3 + 6 + 7);
  });

  it('keeps them all while there are three or fewer', () => {
    expect(backupsToRemove([taken(9 * DAY), taken(30 * DAY)], NOW)).toEqual([]);
  });
});

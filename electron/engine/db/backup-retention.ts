const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The newest backups, kept whatever their age. */
export const KEEP_NEWEST = 3;
/** Besides them, the newest backup of each of the last hours, and of each of the last days. */
export const KEEP_HOURS = 6;
export const KEEP_DAYS = 7;

export interface TakenBackup {
  path: string;
  takenAt: number;
}

/**
 * Which backups go: all but the newest few, the newest of each of the last hours and of each of the last
 * days. Every command that changed the queue takes one at its start, so the newest few cover minutes;
 * a user who finds the damage tomorrow wants one from before it (at most 3 + 6 + 7 copies are kept).
 */
export function backupsToRemove(backups: readonly TakenBackup[], now: number): string[] {
  const newestFirst = [...backups].sort((a, b) => b.takenAt - a.takenAt);
  const keep = new Set(newestFirst.slice(0, KEEP_NEWEST).map((b) => b.path));
  const keepNewestPer = (slot: number, count: number) => {
    const seen = new Set<number>();
    for (const b of newestFirst) {
      const ago = Math.floor((now - b.takenAt) / slot);
      if (ago < 0 || ago >= count || seen.has(ago)) continue;
      seen.add(ago);
      keep.add(b.path);
    }
  };
  keepNewestPer(HOUR_MS, KEEP_HOURS);
  keepNewestPer(DAY_MS, KEEP_DAYS);
  return newestFirst.filter((b) => !keep.has(b.path)).map((b) => b.path);
}

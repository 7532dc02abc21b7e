import { z } from 'zod';
import type { Db } from './types';

/**
 * WAL frames between two checkpoints of a long run of writes: twice SQLite's own automatic threshold. A
 * checkpoint syncs the WAL and the database file whatever it copies, and the syncs, not the copy (a few
 * milliseconds per 1,000 frames), were most of its time: half as many checkpoints, half the syncs.
 */
export const FRAMES_PER_CHECKPOINT = 2000;

const CheckpointResult = z.array(z.object({ busy: z.number(), log: z.number(), checkpointed: z.number() }));

/**
 * The WAL's checkpoints taken out of a long run of commits (an add of 100,000 jobs). SQLite copies the
 * WAL into the database file and syncs it inside whichever commit takes the WAL past 1,000 frames: that
 * commit's turn of the event loop then held the copy and the sync too, the longest turn of the add. While
 * a run holds them, commits do not checkpoint; the run checkpoints between its commits, in a turn of its
 * own, about as often as SQLite would.
 */
export class WalCheckpoints {
  private holders = 0;
  private automatic = FRAMES_PER_CHECKPOINT;
  private commits = 0;
  /** Commits of the run between two checkpoints, learned from the frames the last one found. */
  private every = 1;

  constructor(private readonly db: Db) {}

  /** Commits stop checkpointing until the returned release (runs may overlap: the last one restores). */
  hold(): () => void {
    if (this.holders++ === 0) {
      this.automatic = this.db.pragma('wal_autocheckpoint', { simple: true }) as number;
      this.db.pragma('wal_autocheckpoint = 0');
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders === 0) this.db.pragma(`wal_autocheckpoint = ${this.automatic}`);
    };
  }

  /** A run's commit: whether the WAL has grown by about a checkpoint's worth since the last one. */
  committed(): boolean {
    return ++this.commits >= this.every;
  }

  /** Copies the WAL into the database (PASSIVE: it never waits for another connection's reads). */
  run(): void {
    const [result] = CheckpointResult.parse(this.db.pragma('wal_checkpoint(PASSIVE)'));
    const perCommit = result && result.log > 0 ? result.log / Math.max(1, this.commits) : 0;
    this.every = perCommit > 0 ? Math.max(1, Math.floor(FRAMES_PER_CHECKPOINT / perCommit)) : 1;
    this.commits = 0;
  }
}

const connections = new WeakMap<Db, WalCheckpoints>();

/** The checkpoints of a connection: one per connection, whichever store asks. */
export function checkpointsOf(db: Db): WalCheckpoints {
  let c = connections.get(db);
  if (!c) connections.set(db, (c = new WalCheckpoints(db)));
  return c;
}

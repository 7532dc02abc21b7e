import { hostname } from 'node:os';
import { z } from 'zod';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';

const Beat = z.object({
  at: z.number(),
  pid: z.number().int().optional(),
  host: z.string().optional(),
  owner: z.string().optional(),
  /** The machine's monotonic clock when it beat: its age, read on this machine. */
  mono: z.number().optional(),
});
export type WatchBeat = z.infer<typeof Beat>;

/**
 * The watching process's heartbeat: folders show `inactive` when nobody watches them. A beat is told as a
 * change of every folder only when a watcher starts or stops (not at every beat: they come every few seconds).
 */
export class WatchHeartbeat {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      heartbeat: db.prepare(`SELECT value FROM settings WHERE key = 'watch.heartbeat'`),
      putHeartbeat: db.prepare(
        `INSERT INTO settings (key, value) VALUES ('watch.heartbeat', ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      dropHeartbeat: db.prepare(`DELETE FROM settings WHERE key = 'watch.heartbeat' AND value LIKE ?`),
    };
  }

  /** `mono`: the machine's monotonic clock now (runner/idle's machineClockMs). */
  heartbeat(owner: string, now: number, mono: number): void {
    this.t.write(() => {
      const started = this.lastBeat()?.owner !== owner;
      const beat = { owner, at: now, mono, pid: process.pid, host: hostname() };
      this.q.putHeartbeat.run(JSON.stringify(beat));
      if (started) this.t.changes.someFolders();
    });
  }

  dropHeartbeat(owner: string): void {
    this.t.write(() => {
      if (this.q.dropHeartbeat.run(`%"owner":${JSON.stringify(owner)}%`).changes)
        this.t.changes.someFolders();
    });
  }

  /** When a watching process last said it was alive (0: never). */
  lastHeartbeat(): number {
    return this.lastBeat()?.at ?? 0;
  }

  /** The last heartbeat: when, and which process on which machine (null: none). */
  lastBeat(): WatchBeat | null {
    const raw = (this.q.heartbeat.get() as { value: string } | undefined)?.value;
    if (!raw) return null;
    try {
      const parsed = Beat.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

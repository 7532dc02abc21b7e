import { hostname } from 'node:os';
import { z } from 'zod';
import type { Db } from '../types';

const Beat = z.object({ at: z.number(), pid: z.number().int().optional(), host: z.string().optional() });
export type WatchBeat = z.infer<typeof Beat>;

/** The watching process's heartbeat: folders show `inactive` when nobody watches them. */
export class WatchHeartbeat {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      heartbeat: db.prepare(`SELECT value FROM settings WHERE key = 'watch.heartbeat'`),
      putHeartbeat: db.prepare(
        `INSERT INTO settings (key, value) VALUES ('watch.heartbeat', ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      dropHeartbeat: db.prepare(`DELETE FROM settings WHERE key = 'watch.heartbeat' AND value LIKE ?`),
    };
  }

  heartbeat(owner: string, now: number): void {
    this.q.putHeartbeat.run(JSON.stringify({ owner, at: now, pid: process.pid, host: hostname() }));
  }

  dropHeartbeat(owner: string): void {
    this.q.dropHeartbeat.run(`%"owner":${JSON.stringify(owner)}%`);
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

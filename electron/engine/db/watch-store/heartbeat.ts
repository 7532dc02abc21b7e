import { z } from 'zod';
import type { Db } from '../open';

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
    this.q.putHeartbeat.run(JSON.stringify({ owner, at: now }));
  }

  dropHeartbeat(owner: string): void {
    this.q.dropHeartbeat.run(`%"owner":${JSON.stringify(owner)}%`);
  }

  /** When a watching process last said it was alive (0: never). */
  lastHeartbeat(): number {
    const raw = (this.q.heartbeat.get() as { value: string } | undefined)?.value;
    if (!raw) return 0;
    try {
      const parsed = z.object({ at: z.number() }).safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.at : 0;
    } catch {
      return 0;
    }
  }
}

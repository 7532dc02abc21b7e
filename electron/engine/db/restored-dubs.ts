import { z } from 'zod';
import { AbandonedIds, JobRow } from './job-store/rows';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

/**
 * After `restore-db`, what the restored queue does not know about the service: the dubs made since its
 * backup. Until the service has been asked (`RESTORE_PENDING` in the settings), nothing is sent; each dub
 * it lists that no job owns is kept here (`unclaimed_dubs`, migration 16) and taken by the job of its file
 * when that job is about to create one (flows/restored-dubs.ts), instead of paying for it again.
 */
const RESTORE_PENDING = 'restore_pending';

export const RestorePending = z.object({
  restoredAt: z.number(),
  /** When the backup put back was taken: the dubs made since are the ones it does not know. */
  backupAt: z.number(),
});
export type RestorePending = z.infer<typeof RestorePending>;

/** A dub the service listed after a restore that no job of the restored queue owns. */
export const UnclaimedDub = z.object({
  remote_id: z.string(),
  /** The lists it appeared in (`v2`, `v1`, `legacy`, comma-separated): a job takes one of its own list. */
  lists: z.string(),
  name: z.string(),
  dest_lang: z.string(),
  source_lang: z.string().nullable(),
  /** 1 or 0; null where the list does not say (legacy). */
  studio: z.number().int().nullable(),
  /** The duration hint the job sent (seconds), as the service echoes it. */
  duration: z.number().nullable(),
  status: z.number().int().nullable(),
  found_at: z.number().int(),
});
export type UnclaimedDub = z.infer<typeof UnclaimedDub>;

/** Offered to the jobs of their files this long after the restore; then a file added again is new work. */
const OFFERED_MS = 30 * 24 * 3600_000;

/** Marks a restore whose dubs the service is to be asked for (on the restored file's own connection). */
export function markRestored(db: Db, pending: RestorePending): void {
  db.prepare(
    `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(RESTORE_PENDING, JSON.stringify(pending));
}

/** The restore's part of the job store: whether the service is still to be asked, and the dubs kept. */
export class RestoredDubs {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      pending: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      put: db.prepare(
        `INSERT OR REPLACE INTO unclaimed_dubs
          (remote_id, lists, name, dest_lang, source_lang, studio, duration, status, found_at)
          VALUES (@remote_id, @lists, @name, @dest_lang, @source_lang, @studio, @duration, @status, @found_at)`,
      ),
      settled: db.prepare(`DELETE FROM settings WHERE key = ?`),
      unclaimed: db.prepare(`SELECT * FROM unclaimed_dubs WHERE found_at > ? ORDER BY found_at DESC`),
      any: db.prepare(`SELECT 1 FROM unclaimed_dubs LIMIT 1`),
      drop: db.prepare(`DELETE FROM unclaimed_dubs WHERE remote_id = ?`),
      unsent: db.prepare(
        `SELECT * FROM jobs WHERE step = 'submit' AND dest_lang = ? AND id != ?
          AND +state IN ('queued', 'uploading', 'paused', 'failed') AND reuse_results = 0`,
      ),
      owned: db.prepare(`SELECT DISTINCT remote_id FROM jobs WHERE remote_id IS NOT NULL`),
      abandoned: db.prepare(`SELECT abandoned_remote_ids FROM jobs WHERE abandoned_remote_ids != '[]'`),
    };
  }

  /** The restore whose dubs the service has not been asked for yet, or null. */
  pending(): RestorePending | null {
    const row = this.q.pending.get(RESTORE_PENDING) as { value: string } | undefined;
    if (!row) return null;
    try {
      const parsed = RestorePending.safeParse(JSON.parse(row.value));
      // A value nobody can read is still a restore: asked for from the beginning of time.
      return parsed.success ? parsed.data : { restoredAt: Date.now(), backupAt: 0 };
    } catch {
      return { restoredAt: Date.now(), backupAt: 0 };
    }
  }

  /** The service was asked: keeps what it listed that no job owns, and lets sending begin. */
  settle(dubs: readonly UnclaimedDub[]): void {
    this.t.write(() => {
      for (const d of dubs) this.q.put.run(d);
      this.q.settled.run(RESTORE_PENDING);
    });
  }

  /** The dubs still on offer, newest found first; none once they are all taken or too old. */
  unclaimed(now = Date.now()): UnclaimedDub[] {
    return this.q.unclaimed
      .all(now - OFFERED_MS)
      .map((r) => UnclaimedDub.safeParse(r))
      .flatMap((p) => (p.success ? [p.data] : []));
  }

  hasUnclaimed(): boolean {
    return this.q.any.get() !== undefined;
  }

  /** A job took it: no other ever will. */
  drop(remoteId: string): void {
    this.t.write(() => this.q.drop.run(remoteId));
  }

  /** Jobs of a language that have not created their dub yet (and may still): rivals for a kept one. */
  unsentOfLanguage(destLang: string, except: number): JobRow[] {
    return this.q.unsent.all(destLang, except).map((r) => JobRow.parse(r));
  }

  /** Every dub id a job of the queue owns, or gave up (an undispatched 502, a dub that failed). */
  ownedIds(): Set<string> {
    const ids = new Set((this.q.owned.all() as { remote_id: string }[]).map((r) => r.remote_id));
    for (const row of this.q.abandoned.all() as { abandoned_remote_ids: string }[])
      for (const id of AbandonedIds.parse(row.abandoned_remote_ids)) ids.add(id);
    return ids;
  }
}

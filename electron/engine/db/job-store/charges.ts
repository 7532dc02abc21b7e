import { z } from 'zod';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';

/** A charged job as the spending report reads it. */
export const ChargeRow = z.object({
  id: z.number().int(),
  charged_at: z.number().int(),
  source: z.string(),
  source_name: z.string(),
  source_kind: z.enum(['file', 'url']),
  dest_lang: z.string(),
  studio: z.number().int(),
  credits_charged: z.number(),
  duration: z.number().nullable(),
  batch_id: z.number().int().nullable(),
  folder: z.string().nullable(),
});
export type ChargeRow = z.infer<typeof ChargeRow>;

/**
 * What the service in use charged: every job of its with a charge recorded (cleared and aged ones too: the money was
 * spent), except copies, whose files were linked at no charge. The watched folder a job came from is its
 * folder. Oldest first.
 */
export class JobCharges {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      since: db.prepare(
        `SELECT j.id, j.charged_at, j.source, j.source_name, j.source_kind, j.dest_lang, j.studio,
            j.credits_charged, j.duration, j.batch_id, w.path AS folder
          FROM jobs j INDEXED BY jobs_charged LEFT JOIN watch_folders w ON w.id = j.watch_folder_id
          WHERE j.credits_charged IS NOT NULL AND j.reuse_results = 0 AND j.charged_at >= ? AND j.service IN (?, '')
          ORDER BY j.charged_at, j.id`,
      ),
      newBatch: db.prepare(`INSERT INTO batches (created_at) VALUES (?)`),
    };
  }

  /** Charges of `service`'s account (the one in use) recorded at or after `from`. */
  since(from: number, service: string): ChargeRow[] {
    return this.q.since.all(from, service).map((r) => ChargeRow.parse(r));
  }

  /** A new batch (what one add queues): its number, for its jobs' `batch_id`. */
  newBatch(at: number): number {
    return this.t.write(() => Number(this.q.newBatch.run(at).lastInsertRowid));
  }
}

import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { JobRow } from './rows';

/**
 * What makes two jobs the same dub: the same content, target, source language, quality and audio track
 * (absent: the first).
 */
export type DubKey = Pick<JobRow, 'source_hash' | 'dest_lang' | 'source_lang' | 'studio'> & {
  audio_track?: string;
};

const SAME = `source_hash = @source_hash AND dest_lang = @dest_lang AND source_lang = @source_lang AND studio = @studio
  AND audio_track = @audio_track`;

/** A dub as one string: what `paidDubs` answers. */
export const dubKeyOf = (k: DubKey): string =>
  `${k.source_hash}\u0000${k.dest_lang}\u0000${k.source_lang}\u0000${k.studio}\u0000${k.audio_track ?? 'first'}`;

/** The same dub made by several jobs: whose results a copy takes, which dubs are paid for already. */
export class SameContent {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      completedIds: db
        .prepare(`SELECT id FROM jobs WHERE ${SAME} AND state = 'completed' ORDER BY id DESC`)
        .pluck(),
      byId: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      carrier: db.prepare(
        `SELECT * FROM jobs WHERE ${SAME} AND id <> @id AND reuse_results = 0
            AND state IN ('queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused')
            ORDER BY id LIMIT 1`,
      ),
      paid: db.prepare(
        `SELECT DISTINCT source_hash, dest_lang, source_lang, studio, audio_track FROM jobs
          WHERE source_hash IN (SELECT value FROM json_each(?)) AND (+state = 'completed' OR (reuse_results = 0
            AND +state IN ('queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused')))`,
      ),
      wakeCopies: db
        .prepare(
          `UPDATE jobs SET next_run_at = 0 WHERE ${SAME} AND reuse_results = 1 AND state = 'queued'
            AND waiting_code = 'first-upload' RETURNING id`,
        )
        .pluck(),
    };
  }

  /**
   * The completed dubs of one content, wherever its files lie, newest first: what a copy takes its results
   * from. Read one at a time, as the caller goes: a content dubbed many times over (the same intro clip in
   * every folder) has hundreds, and a copy usually takes the first.
   */
  *completedDubsOf(key: DubKey): Generator<JobRow> {
    if (!key.source_hash) return;
    const ids = this.q.completedIds.all(params(key)) as number[];
    for (const id of ids) {
      const row = this.q.byId.get(id);
      if (row) yield JobRow.parse(row);
    }
  }

  /**
   * The job that is dubbing this content now (or waits its turn to), other than `id`, which a copy waits for;
   * null when none. A copy (`reuse_results`) never carries the dub itself.
   */
  carrierOf(key: DubKey, id: number): JobRow | null {
    if (!key.source_hash) return null;
    const row = this.q.carrier.get({ ...params(key), id });
    return row ? JobRow.parse(row) : null;
  }

  /**
   * Which of these dubs are paid for already (`dubKeyOf` each): one a job is making or waits to make (not a
   * copy: `carrierOf`), or one completed (`completedDubsOf`). One query for many jobs (a slice of an add), not
   * two per job; by content (`+state`: through the states it read every queued or completed job).
   */
  paidDubs(keys: readonly DubKey[]): Set<string> {
    const hashes = [...new Set(keys.flatMap((k) => (k.source_hash ? [k.source_hash] : [])))];
    if (hashes.length === 0) return new Set();
    const rows = this.q.paid.all(JSON.stringify(hashes)) as DubKey[];
    return new Set(rows.map(dubKeyOf));
  }

  /** Copies waiting for this content's dub look again now (it completed, failed or was canceled). */
  wakeCopyWaiters(key: DubKey): void {
    if (!key.source_hash) return;
    this.t.write(() => {
      const ids = this.q.wakeCopies.all(params(key)) as number[];
      for (const id of ids) this.t.changes.job(id);
      if (ids.length) this.t.changes.dueSooner();
    });
  }
}

function params(key: DubKey) {
  return {
    source_hash: key.source_hash,
    dest_lang: key.dest_lang,
    source_lang: key.source_lang,
    studio: key.studio,
    audio_track: key.audio_track ?? 'first',
  };
}

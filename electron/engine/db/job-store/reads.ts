import { z } from 'zod';
import type { Db } from '../types';
import { parseJobRow } from './row-cells';
import { JobRow } from './rows';

/** What makes two jobs the same dub (see `db/same-content.ts`), as a carrier of it reads from the table. */
const DubOfContent = z.object({
  source_hash: z.string(),
  dest_lang: z.string(),
  source_lang: z.string(),
  studio: z.number(),
  audio_track: z.string(),
  /** The file whose job is making that dub (the first queued, when several are). */
  source_name: z.string(),
});
export type DubOfContent = z.infer<typeof DubOfContent>;

/** A job by id, and the jobs of a source: what adding, planning and the flows look up. */
export class JobReads {
  private readonly q;

  constructor(db: Db) {
    // `+state`: a batch's lookups go by source or content; by state they read every completed (or queued)
    // job of the history, which is what SQLite's planner chose, not knowing how few the batch names.
    this.q = {
      get: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      live: db.prepare(
        `SELECT * FROM jobs WHERE source = ? AND dest_lang = ? AND audio_track = ? AND state NOT IN ('completed', 'canceled')`,
      ),
      completed: db.prepare(`SELECT * FROM jobs WHERE source = ? AND dest_lang = ? AND state = 'completed'`),
      liveOf: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND +state NOT IN ('completed', 'canceled')`,
      ),
      completedOf: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND +state = 'completed' ORDER BY id DESC`,
      ),
      completedOfHashes: db.prepare(
        `SELECT * FROM jobs WHERE source_hash IN (SELECT value FROM json_each(?)) AND +state = 'completed' ORDER BY id DESC`,
      ),
      carriersOfHashes: db.prepare(
        `SELECT source_hash, dest_lang, source_lang, studio, audio_track, source_name, MIN(id) FROM jobs
          WHERE source_hash IN (SELECT value FROM json_each(?)) AND reuse_results = 0
            AND +state IN ('queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused')
          GROUP BY source_hash, dest_lang, source_lang, studio, audio_track`,
      ),
      sameSource: db.prepare(`SELECT * FROM jobs WHERE source = ? AND id != ?`),
      remoteIdsInUse: db.prepare(`SELECT remote_id FROM jobs WHERE remote_id IS NOT NULL AND id != ?`),
    };
  }

  /** A job's row; read at each of its steps, parsed by the cells that changed (`parseJobRow`). */
  get(id: number): JobRow | undefined {
    const row = this.q.get.get(id);
    return row ? parseJobRow(row) : undefined;
  }

  /** A job as the user sees the queue: one cleared from the list is not there any more. */
  shown(id: number): JobRow | undefined {
    const row = this.get(id);
    return row?.cleared_at === null ? row : undefined;
  }

  /** The live job (not completed, not canceled) of a source, language and audio track, if any. */
  live(source: string, destLang: string, audioTrack = 'first'): JobRow | undefined {
    const row = this.q.live.get(source, destLang, audioTrack);
    return row ? JobRow.parse(row) : undefined;
  }

  /** Completed jobs of a source and language, newest first. */
  completed(source: string, destLang: string): JobRow[] {
    return this.q.completed
      .all(source, destLang)
      .map((r) => JobRow.parse(r))
      .sort((a, b) => b.id - a.id);
  }

  /** Live jobs (not completed, not canceled) of any of these sources: one query for a whole batch. */
  liveOf(sources: readonly string[]): JobRow[] {
    return this.q.liveOf.all(JSON.stringify(sources)).map((r) => JobRow.parse(r));
  }

  /** Completed jobs of any of these sources, newest first. */
  completedOf(sources: readonly string[]): JobRow[] {
    return this.q.completedOf.all(JSON.stringify(sources)).map((r) => JobRow.parse(r));
  }

  /** Completed jobs of sources with these contents, wherever the files were, newest first. */
  completedOfHashes(hashes: readonly string[]): JobRow[] {
    return this.q.completedOfHashes.all(JSON.stringify(hashes)).map((r) => JobRow.parse(r));
  }

  /**
   * The dubs being made now (or waiting their turn) of these contents: `carrierOf` for a whole batch in one
   * query, not one per job (100,000 of those held the event loop for 3 s).
   */
  carriersOfHashes(hashes: readonly string[]): DubOfContent[] {
    return this.q.carriersOfHashes.all(JSON.stringify(hashes)).map((r) => DubOfContent.parse(r));
  }

  /** The other jobs of the same source (any language, any state), in queue order. */
  sameSource(row: Pick<JobRow, 'id' | 'source'>): JobRow[] {
    return this.q.sameSource
      .all(row.source, row.id)
      .map((r) => JobRow.parse(r))
      .sort((a, b) => a.id - b.id);
  }

  /** Remote ids other jobs already own: a reconciled create must never adopt one of them. */
  remoteIdsOwnedByOthers(id: number): Set<string> {
    return new Set((this.q.remoteIdsInUse.all(id) as { remote_id: string }[]).map((r) => r.remote_id));
  }
}

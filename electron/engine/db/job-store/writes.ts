import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { vacuumSome } from '../vacuum';
import {
  cellsOf,
  JobRow,
  LeaseLostError,
  LIFE_COLUMNS,
  NOT_WORKABLE,
  type AnyPatch,
  type NewJob,
  type RecordPatch,
  type WriteGuard,
} from './rows';

/** What a new job is given; every other column takes its default. */
const NEW_COLUMNS = [
  'source',
  'source_kind',
  'source_name',
  'source_type',
  'source_bytes',
  'source_mtime',
  'source_hash',
  'reuse_results',
  'duration',
  'dest_lang',
  'source_lang',
  'api',
  'studio',
  'out_dir',
  'outputs_wanted',
  'naming',
  'service',
  'watch_folder_id',
  'upload_once',
  'deliver',
  'send',
  'audio_track',
] as const satisfies readonly (keyof NewJob)[];
const INTO = `INTO jobs (${NEW_COLUMNS.join(', ')}, state, step, created_at, updated_at)`;

/** A new job, queued at its first step. */
const INSERT_JOB = `INSERT ${INTO} VALUES (${NEW_COLUMNS.map((c) => `@${c}`).join(', ')}, 'queued', 'submit', @now, @now)`;

/**
 * Rows a multi-row insert takes. One statement per job made SQLite copy every page the insert touched (the
 * jobs row, its indexes, the aggregates and the search index the triggers keep) into a statement journal,
 * for each job: a table with triggers gets one per statement. An add's window of the small-first order
 * (256 jobs) is one statement: 6,400 parameters, a fifth of SQLite's limit; 50 rows a statement cost a
 * sixth more CPU.
 */
export const INSERT_ROWS = 256;
/**
 * The many-row insert gives each job its place in the queue's order itself (after the last, in the order
 * given, or as `Placing` ranks them), as the `jobs_insert_order` trigger would: that trigger's UPDATE, and
 * the live source's position it then recomputes, were half the insert's CPU.
 */
const ROWS_INTO = `INTO jobs (${NEW_COLUMNS.join(', ')}, state, step, created_at, updated_at, queue_order, batch_id)`;
const row = `(${NEW_COLUMNS.map(() => '?').join(', ')}, 'queued', 'submit', ?, ?, ?, ?)`;

/**
 * Where a many-row insert puts its jobs: each job's rank among the places the insert takes at the end of
 * the queue (0 first; the order given when absent), and the batch they are added with (null: none).
 */
export interface Placing {
  ranks?: readonly number[];
  batch: number | null;
}

/** The optional columns of a new job, when the job does not say. */
const NEW_JOB_DEFAULTS = {
  source_hash: null,
  reuse_results: 0,
  deliver: null,
  send: 'file',
  audio_track: 'first',
} as const;

interface InsertedRow {
  id: number;
  source: string;
  dest_lang: string;
  audio_track: string;
}

/** Every write of a job row. State changes go through `jobs/life.ts`, which calls `write` and `insert`. */
export class JobWrites {
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly q;
  private readonly t: Transactions;

  constructor(private readonly db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      insert: db.prepare(INSERT_JOB),
      insertUnlessLive: db.prepare(`${INSERT_JOB} ON CONFLICT DO NOTHING`),
      insertRows: new Map<number, ReturnType<Db['prepare']>>(),
      nextOrder: db.prepare(`SELECT coalesce(max(queue_order), 0) + 1 FROM jobs`).pluck(),
      wakeFirstUpload: db
        .prepare(
          `UPDATE jobs SET next_run_at = 0 WHERE source = ? AND state = 'queued' AND waiting_code = 'first-upload' AND next_run_at > 0 RETURNING id`,
        )
        .pluck(),
      endNetworkWaits: db
        .prepare(
          `UPDATE jobs SET next_run_at = @now WHERE waiting_code = 'offline' AND next_run_at > @now
             AND lease_token IS NULL AND step IN ('submit', 'fetch') AND service IN (@service, '') RETURNING id`,
        )
        .pluck(),
      shiftWaits: db
        .prepare(
          `UPDATE jobs SET next_run_at = max(@now, next_run_at - @back) WHERE next_run_at > @now
             AND lease_token IS NULL AND step IN ('submit', 'fetch') RETURNING id`,
        )
        .pluck(),
      remove: db.prepare(`DELETE FROM jobs WHERE id = ? AND state IN ('failed', 'canceled')`),
      clear: db.prepare(
        `UPDATE jobs SET cleared_at = ? WHERE id = ? AND state = 'completed' AND cleared_at IS NULL`,
      ),
    };
  }

  /** Inserts a queued job and returns its id; only `jobs/life.ts` calls it (it writes the history too). */
  insert(job: NewJob, now: number): number {
    return this.t.write(() => {
      const id = Number(this.q.insert.run({ ...NEW_JOB_DEFAULTS, ...job, now }).lastInsertRowid);
      this.t.changes.jobsAdded([id]);
      return id;
    });
  }

  /**
   * Like `insert`, unless the source and language already have a live job (the unique index says so, in the
   * same statement: another add, in this process or another, may have queued it a moment ago). Null then.
   */
  insertUnlessLive(job: NewJob, now: number): number | null {
    return this.t.write(() => {
      const r = this.q.insertUnlessLive.run({ ...NEW_JOB_DEFAULTS, ...job, now });
      if (r.changes === 0) return null;
      const id = Number(r.lastInsertRowid);
      this.t.changes.jobsAdded([id]);
      return id;
    });
  }

  /**
   * `insertUnlessLive` for many jobs, in statements of up to `INSERT_ROWS` rows: each job's id, in order,
   * or null where a live job of its source and language is there (from before, or earlier in `jobs`).
   */
  insertManyUnlessLive(
    jobs: readonly NewJob[],
    now: number,
    placing: Placing = { batch: null },
  ): (number | null)[] {
    return this.t.write(() => {
      const ids = this.insertRows(jobs, now, placing);
      this.t.changes.jobsAdded(ids.filter((id) => id !== null));
      return ids;
    });
  }

  private insertRows(jobs: readonly NewJob[], now: number, placing: Placing): (number | null)[] {
    const ids: (number | null)[] = [];
    const first = this.q.nextOrder.get() as number;
    for (let start = 0; start < jobs.length; start += INSERT_ROWS) {
      const chunk = jobs.slice(start, start + INSERT_ROWS);
      const params: unknown[] = [];
      chunk.forEach((job, i) => {
        const full: Record<string, unknown> = {
          source_hash: null,
          reuse_results: 0,
          deliver: null,
          send: 'file',
          audio_track: 'first',
          ...job,
        };
        for (const c of NEW_COLUMNS) params.push(full[c]);
        params.push(now, now, first + (placing.ranks?.[start + i] ?? start + i), placing.batch);
      });
      // RETURNING's order is not promised: each id goes to the first job of its source and language.
      const inserted = new Map<string, number>();
      for (const r of this.rowsStatement(chunk.length).all(params) as InsertedRow[])
        inserted.set(`${r.dest_lang}\u0000${r.audio_track}\u0000${r.source}`, r.id);
      for (const job of chunk) {
        const key = `${job.dest_lang}\u0000${job.audio_track ?? 'first'}\u0000${job.source}`;
        ids.push(inserted.get(key) ?? null);
        inserted.delete(key);
      }
    }
    return ids;
  }

  private rowsStatement(rows: number): ReturnType<Db['prepare']> {
    let stmt = this.q.insertRows.get(rows);
    if (!stmt) {
      const values = Array.from({ length: rows }, () => row).join(', ');
      stmt = this.db.prepare(
        `INSERT ${ROWS_INTO} VALUES ${values} ON CONFLICT DO NOTHING RETURNING id, source, dest_lang, audio_track`,
      );
      this.q.insertRows.set(rows, stmt);
    }
    return stmt;
  }

  /** Jobs of a source waiting for its first upload look again now; only `jobs/life.ts` calls it. */
  wakeFirstUploadWaiters(source: string): void {
    this.t.write(() => this.woken(this.q.wakeFirstUpload.all(source) as number[]));
  }

  /**
   * Jobs waiting out a network backoff become due now (the machine woke up, the network is back): their wait
   * is over, their state and history stay as they are. Returns how many.
   */
  endNetworkWaits(service: string, now: number): number {
    return this.t.write(() => this.woken(this.q.endNetworkWaits.all({ now, service }) as number[]));
  }

  /** The wall clock stepped back `back` ms: the jobs still waiting are due that much sooner on it. */
  shiftWaits(back: number, now: number): number {
    return this.t.write(() => this.woken(this.q.shiftWaits.all({ back, now }) as number[]));
  }

  /** Jobs made due now: told as changed, and the worker looks. */
  private woken(ids: readonly number[]): number {
    for (const id of ids) this.t.changes.job(id);
    if (ids.length) this.t.changes.dueSooner();
    return ids.length;
  }

  /**
   * Records what a flow learned (never the job's state). The worker writes under its token; the poller only
   * while the job is still tracked, so a poll that read the job before a cancel cannot bring it back.
   */
  record(id: number, guard: WriteGuard, patch: RecordPatch, now = Date.now()): void {
    for (const k of Object.keys(patch))
      if ((LIFE_COLUMNS as readonly string[]).includes(k))
        throw new Error(`${k} is written by the job's life only`);
    this.write(id, guard, patch, now);
  }

  /**
   * The one UPDATE of a job row; `jobs/life.ts` uses it for state changes, `record` for the rest. `after`:
   * the whole row once written, when the writer knows it (the job's life does): the change carries it.
   */
  write(id: number, guard: WriteGuard, patch: AnyPatch, now: number, after?: JobRow): void {
    this.t.write(() => {
      this.update(id, guard, patch, now);
      this.t.changes.job(id, after ?? null);
      const due = patch.next_run_at !== undefined && patch.next_run_at !== null && patch.next_run_at <= now;
      if (due || patch.step === 'track') this.t.changes.dueSooner();
    });
  }

  private update(id: number, guard: WriteGuard, patch: AnyPatch, now: number): void {
    const keys = Object.keys(patch).sort();
    const kind = typeof guard === 'string' ? guard : 'token';
    const sig = `${keys.join(',')}|${kind}`;
    let stmt = this.statements.get(sig);
    if (!stmt) {
      for (const k of keys) if (!(k in JobRow.shape)) throw new Error(`unknown column ${k}`);
      const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @__now'].join(', ');
      const cond = {
        token: 'lease_token = @__token',
        tracked: `lease_token IS NULL AND step = 'track' AND state NOT IN ${NOT_WORKABLE}`,
        followed: `lease_token IS NULL AND step = 'track' AND state IN ('canceled', 'paused')`,
        'after-cancel': `lease_token IS NULL AND step = 'submit' AND state = 'canceled' AND create_pending != 0`,
        user: '1',
      }[kind];
      stmt = this.db.prepare(`UPDATE jobs SET ${sets} WHERE id = @__id AND ${cond}`);
      this.statements.set(sig, stmt);
    }
    const token = typeof guard === 'string' ? {} : { __token: guard.token };
    const info = stmt.run({ ...cellsOf(patch), ...token, __id: id, __now: now });
    if (info.changes !== 1) throw new LeaseLostError(id);
  }

  /**
   * Takes finished jobs off the queue (their files stay); returns the ids taken off. Failed and canceled
   * jobs are deleted; completed ones are only hidden: what was dubbed, and which files are Dubdesk's own
   * results, must outlive the list (else adding the folder again pays again, and dubs the dubs).
   */
  remove(ids: readonly number[], now = Date.now()): number[] {
    const removed: number[] = [];
    this.t.tx(() => {
      for (const id of ids)
        if (this.q.remove.run(id).changes === 1 || this.q.clear.run(now, id).changes === 1) removed.push(id);
      this.t.changes.jobsRemoved(removed);
    });
    if (removed.length) vacuumSome(this.db);
    return removed;
  }
}

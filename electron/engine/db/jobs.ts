import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ERROR_CODES } from '../../../shared/contract/errors';
import { API_GENERATIONS, JOB_STATES, type JobFilter, type JobState } from '../../../shared/contract/jobs';
import { MAX_CONCURRENCY } from '../../../shared/contract/settings';
import type { Db } from './open';
import type { Transaction } from 'better-sqlite3';

/** A row of `jobs` exactly as stored; parsed on the way out because the database is a file on disk. */
export const JobRow = z.object({
  id: z.number().int(),
  source: z.string(),
  source_kind: z.enum(['file', 'url']),
  source_name: z.string(),
  source_type: z.string().nullable(),
  source_bytes: z.number().int().nullable(),
  source_mtime: z.number().nullable(),
  duration: z.number().nullable(),
  dest_lang: z.string(),
  source_lang: z.string(),
  api: z.enum(API_GENERATIONS),
  studio: z.number().int(),
  out_dir: z.string(),
  outputs_wanted: z.string(),
  naming: z.enum(['suffix', 'folders']),
  service: z.string(),
  watch_folder_id: z.number().int().nullable(),
  state: z.enum(JOB_STATES),
  step: z.enum(['submit', 'track', 'fetch', 'done']),
  remote_id: z.string().nullable(),
  upload_url: z.string().nullable(),
  upload_expires_at: z.number().int().nullable(),
  uploaded: z.number().int(),
  create_pending: z.number().int(),
  create_attempted_at: z.number().int().nullable(),
  abandoned_remote_ids: z.string(),
  remote_status: z.number().int().nullable(),
  progress: z.number(),
  waiting: z.string().nullable(),
  waiting_code: z.string().nullable(),
  error: z.string().nullable(),
  error_code: z.enum(ERROR_CODES).nullable(),
  error_remedy: z.string().nullable(),
  attempts: z.number().int(),
  next_run_at: z.number().int(),
  pause_requested: z.number().int(),
  lease_token: z.string().nullable(),
  lease_expires_at: z.number().int().nullable(),
  measured_duration: z.number().nullable(),
  credits_charged: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  upload_once: z.number().int(),
  made_from: z.enum(['upload', 'link']).nullable(),
  donor_remote_id: z.string().nullable(),
  link_refused: z.number().int(),
  /** When the user cleared the completed job from the queue: hidden from every list, still remembered. */
  cleared_at: z.number().int().nullable(),
});
export type JobRow = z.infer<typeof JobRow>;

/** Columns only the job's life (`jobs/life.ts`) writes: where the job is and why. */
export const LIFE_COLUMNS = [
  'state',
  'step',
  'waiting',
  'waiting_code',
  'error',
  'error_code',
  'error_remedy',
  'attempts',
  'next_run_at',
  'pause_requested',
  'completed_at',
  'measured_duration',
  'credits_charged',
  'link_refused',
  'cleared_at',
] as const;
type LifeColumn = (typeof LIFE_COLUMNS)[number];

/** What the flows record as they go (remote ids, upload progress); never where the job is in its life. */
export type RecordPatch = Partial<
  Omit<
    JobRow,
    | LifeColumn
    | 'id'
    | 'source'
    | 'source_kind'
    | 'created_at'
    | 'updated_at'
    | 'lease_token'
    | 'lease_expires_at'
  >
>;

/** Everything a row may change, life columns included: only for `jobs/life.ts`. */
export type AnyPatch = RecordPatch & Partial<Pick<JobRow, LifeColumn>>;

export type NewJob = Pick<
  JobRow,
  | 'source'
  | 'source_kind'
  | 'source_name'
  | 'source_type'
  | 'source_bytes'
  | 'source_mtime'
  | 'duration'
  | 'dest_lang'
  | 'source_lang'
  | 'api'
  | 'studio'
  | 'out_dir'
  | 'outputs_wanted'
  | 'naming'
  | 'service'
  | 'watch_folder_id'
  | 'upload_once'
>;

export const OutputRow = z.object({
  job_id: z.number().int(),
  type: z.string(),
  path: z.string(),
  bytes: z.number().int().nullable(),
  done: z.number().int(),
});
export type OutputRow = z.infer<typeof OutputRow>;

export const HistoryRow = z.object({
  at: z.number().int(),
  from_state: z.enum(JOB_STATES).nullable(),
  to_state: z.enum(JOB_STATES),
  event: z.string(),
  reason: z.string().nullable(),
});
export type HistoryRow = z.infer<typeof HistoryRow>;

/** A write by someone who no longer holds the job (a cancel or retry took it, or it moved on). */
export class LeaseLostError extends Error {
  constructor(id: number) {
    super(`job ${id}: lease lost (another worker or a user action took it)`);
    this.name = 'LeaseLostError';
  }
}

/** Who writes: the worker holding the claim, the poller (only while the job is tracked), or a user. */
export type WriteGuard = { token: string } | 'tracked' | 'user';

export const NOT_WORKABLE = `('completed', 'failed', 'canceled', 'paused')`;
const FINISHED = `('completed', 'failed', 'canceled')`;

/** A filter as SQL: the WHERE clause and its named parameters. Cleared jobs are in no list. */
function where(filter: JobFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = ['cleared_at IS NULL'];
  const params: Record<string, unknown> = {};
  if (filter.states) {
    parts.push(`state IN (SELECT value FROM json_each(@states))`);
    params.states = JSON.stringify(filter.states);
  }
  if (filter.ids) {
    parts.push(`id IN (SELECT value FROM json_each(@ids))`);
    params.ids = JSON.stringify(filter.ids);
  }
  if (filter.search?.trim()) {
    parts.push(`(source_name LIKE @search ESCAPE '\\' OR source LIKE @search ESCAPE '\\')`);
    params.search = `%${filter.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  if (filter.source !== undefined) {
    parts.push(`source = @source`);
    params.source = filter.source;
  }
  if (filter.path !== undefined) {
    parts.push(`(source = @path OR id IN (SELECT job_id FROM outputs WHERE path = @path AND done = 1))`);
    params.path = filter.path;
  }
  if (filter.watchFolderId !== undefined) {
    parts.push(`watch_folder_id = @watch`);
    params.watch = filter.watchFolderId;
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * The jobs due at one step, soonest first. The step is written into the SQL and the LIMIT is a constant
 * (the highest concurrency the settings allow; the caller takes what it needs): SQLite 3.5x re-prepares a
 * statement on every run when a bound value could change its plan (a bound step against the partial index,
 * a bound LIMIT, an ORDER BY over a bound equality), and better-sqlite3 then builds a new row function with
 * `Function()` each time. Measured on the bench's 300 jobs: ~0.2 ms of SQLite per job, plus the JIT
 * compiling every new function. The index's own `step IN (...)` term is repeated: SQLite uses a partial
 * index only when the query names its condition.
 */
function dueQuery(step: 'submit' | 'fetch'): string {
  return `
    SELECT id FROM jobs
    WHERE step IN ('submit', 'fetch') AND step = '${step}' AND next_run_at <= ? AND lease_token IS NULL
      AND pause_requested = 0 AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')
    ORDER BY next_run_at, id LIMIT ${MAX_CONCURRENCY}`;
}

/** The soonest due job of one step: the index's order, first row (a constant step, as in `dueQuery`). */
function nextDueQuery(step: 'submit' | 'fetch'): string {
  return `
    SELECT next_run_at AS t FROM jobs
    WHERE step IN ('submit', 'fetch') AND step = '${step}' AND lease_token IS NULL
      AND pause_requested = 0 AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')
    ORDER BY next_run_at LIMIT 1`;
}

/**
 * Rows read with `rowid AS seq` and no ORDER BY (see `dueQuery` for why hot queries avoid one), put back
 * in the order they were inserted.
 */
function inRecordOrder(rows: unknown[]): unknown[] {
  return (rows as { seq: number }[]).sort((a, b) => a.seq - b.seq);
}

/** Every query on the job tables. State changes go through `jobs/life.ts`, which uses `db` directly. */
/** A new job, queued at its first step. */
const INSERT_JOB = `
        INSERT INTO jobs (source, source_kind, source_name, source_type, source_bytes, source_mtime, duration, dest_lang,
          source_lang, api, studio, out_dir, outputs_wanted, naming, service, watch_folder_id, upload_once, state, step, created_at, updated_at)
        VALUES (@source, @source_kind, @source_name, @source_type, @source_bytes, @source_mtime, @duration, @dest_lang,
          @source_lang, @api, @studio, @out_dir, @outputs_wanted, @naming, @service, @watch_folder_id, @upload_once, 'queued', 'submit', @now, @now)`;

export class JobStore {
  /** Sees every history entry as it is written (the engine logs them). */
  onHistory:
    | ((jobId: number, from: JobState | null, to: JobState, event: string, reason: string | null) => void)
    | null = null;
  private readonly recordStatements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly transactions = new WeakMap<object, Transaction<(...args: unknown[]) => unknown>>();
  private readonly reads = new WeakMap<object, Transaction<(...args: unknown[]) => unknown>>();
  private readonly q;

  constructor(readonly db: Db) {
    this.q = {
      get: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      live: db.prepare(
        `SELECT * FROM jobs WHERE source = ? AND dest_lang = ? AND state NOT IN ('completed', 'canceled')`,
      ),
      completed: db.prepare(`SELECT * FROM jobs WHERE source = ? AND dest_lang = ? AND state = 'completed'`),
      liveOf: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND state NOT IN ('completed', 'canceled')`,
      ),
      completedOf: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND state = 'completed' ORDER BY id DESC`,
      ),
      insertHistory: db.prepare(
        `INSERT INTO job_history (job_id, at, from_state, to_state, event, reason) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insert: db.prepare(INSERT_JOB),
      insertUnlessLive: db.prepare(`${INSERT_JOB} ON CONFLICT DO NOTHING`),
      recordedOutputs: db.prepare(
        `SELECT DISTINCT path FROM outputs WHERE path IN (SELECT value FROM json_each(?))`,
      ),
      sameSource: db.prepare(`SELECT * FROM jobs WHERE source = ? AND id != ?`),
      wakeFirstUpload: db.prepare(
        `UPDATE jobs SET next_run_at = 0 WHERE source = ? AND state = 'queued' AND waiting_code = 'first-upload' AND next_run_at > 0`,
      ),
      due: { submit: db.prepare(dueQuery('submit')), fetch: db.prepare(dueQuery('fetch')) },
      lease: db.prepare(`UPDATE jobs SET lease_token = ?, service = ? WHERE id = ? AND lease_token IS NULL`),
      holds: db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND lease_token = ?`),
      pauseRequested: db.prepare(`SELECT pause_requested FROM jobs WHERE id = ?`),
      release: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?`,
      ),
      leased: db.prepare(`SELECT count(*) AS n FROM jobs WHERE lease_token IS NOT NULL`),
      resetAll: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE lease_token IS NOT NULL`,
      ),
      tracking: db.prepare(
        `SELECT * FROM jobs WHERE step = 'track' AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '') ORDER BY id`,
      ),
      trackingCount: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = 'track' AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')`,
      ),
      liveInStep: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = ? AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')`,
      ),
      unfinished: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE state NOT IN ${FINISHED} AND state != 'paused' AND service IN (?, '')`,
      ),
      nextDue: { submit: db.prepare(nextDueQuery('submit')), fetch: db.prepare(nextDueQuery('fetch')) },
      remoteIdsInUse: db.prepare(`SELECT remote_id FROM jobs WHERE remote_id IS NOT NULL AND id != ?`),
      outputs: db.prepare(`SELECT rowid AS seq, * FROM outputs WHERE job_id = ?`),
      outputsOf: db.prepare(
        `SELECT rowid AS seq, * FROM outputs WHERE job_id IN (SELECT value FROM json_each(?))`,
      ),
      putOutput: db.prepare(`
        INSERT INTO outputs (job_id, type, path, bytes, done) VALUES (@job_id, @type, @path, @bytes, @done)
        ON CONFLICT (job_id, type) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, done = excluded.done`),
      clearPendingOutputs: db.prepare(`DELETE FROM outputs WHERE job_id = ? AND done = 0`),
      history: db.prepare(
        `SELECT at, from_state, to_state, event, reason FROM job_history WHERE job_id = ? ORDER BY id`,
      ),
      counts: db.prepare(`SELECT state, count(*) AS n FROM jobs WHERE cleared_at IS NULL GROUP BY state`),
      sums: db.prepare(`
        SELECT
          coalesce(sum(CASE WHEN credits_charged IS NULL AND state NOT IN ('failed', 'canceled') AND duration IS NOT NULL
            THEN (CAST(duration AS INTEGER) + (duration > CAST(duration AS INTEGER))) * (1 + studio) END), 0) AS committed,
          coalesce(sum(credits_charged), 0) AS charged
        FROM jobs WHERE cleared_at IS NULL`),
      remove: db.prepare(`DELETE FROM jobs WHERE id = ? AND state IN ('failed', 'canceled')`),
      clear: db.prepare(
        `UPDATE jobs SET cleared_at = ? WHERE id = ? AND state = 'completed' AND cleared_at IS NULL`,
      ),
      setting: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      putSetting: db.prepare(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      deleteSetting: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  get(id: number): JobRow | undefined {
    const row = this.q.get.get(id);
    return row ? JobRow.parse(row) : undefined;
  }

  /** A job as the user sees the queue: one cleared from the list is not there any more. */
  shown(id: number): JobRow | undefined {
    const row = this.get(id);
    return row?.cleared_at === null ? row : undefined;
  }

  /** The live job (not completed, not canceled) of a source and language, if any. */
  live(source: string, destLang: string): JobRow | undefined {
    const row = this.q.live.get(source, destLang);
    return row ? JobRow.parse(row) : undefined;
  }

  /** Completed jobs of a source and language, newest first. */
  completed(source: string, destLang: string): JobRow[] {
    return this.q.completed
      .all(source, destLang)
      .map((r) => JobRow.parse(r))
      .sort((a, b) => b.id - a.id);
  }

  /** Which of these paths are recorded as some job's output file (its results, finished or being written). */
  recordedOutputs(paths: readonly string[]): Set<string> {
    if (paths.length === 0) return new Set();
    const rows = this.q.recordedOutputs.all(JSON.stringify(paths)) as { path: string }[];
    return new Set(rows.map((r) => r.path));
  }

  /** Live jobs (not completed, not canceled) of any of these sources: one query for a whole batch. */
  liveOf(sources: readonly string[]): JobRow[] {
    return this.q.liveOf.all(JSON.stringify(sources)).map((r) => JobRow.parse(r));
  }

  /** Completed jobs of any of these sources, newest first. */
  completedOf(sources: readonly string[]): JobRow[] {
    return this.q.completedOf.all(JSON.stringify(sources)).map((r) => JobRow.parse(r));
  }

  /** Inserts a queued job and returns its id; only `jobs/life.ts` calls it (it writes the history too). */
  insert(job: NewJob, now: number): number {
    return Number(this.q.insert.run({ ...job, now }).lastInsertRowid);
  }

  /**
   * Like `insert`, unless the source and language already have a live job (the unique index says so, in the
   * same statement: another add, in this process or another, may have queued it a moment ago). Null then.
   */
  insertUnlessLive(job: NewJob, now: number): number | null {
    const r = this.q.insertUnlessLive.run({ ...job, now });
    return r.changes === 0 ? null : Number(r.lastInsertRowid);
  }

  /** The other jobs of the same source (any language, any state), in queue order. */
  sameSource(row: Pick<JobRow, 'id' | 'source'>): JobRow[] {
    return this.q.sameSource
      .all(row.source, row.id)
      .map((r) => JobRow.parse(r))
      .sort((a, b) => a.id - b.id);
  }

  /** Jobs of a source waiting for its first upload look again now; only `jobs/life.ts` calls it. */
  wakeFirstUploadWaiters(source: string): void {
    this.q.wakeFirstUpload.run(source);
  }

  page(filter: JobFilter, offset: number, limit: number): { total: number; rows: JobRow[] } {
    const w = where(filter);
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as { n: number }
    ).n;
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE ${w.sql} ORDER BY id LIMIT @limit OFFSET @offset`)
      .all({ ...w.params, limit, offset })
      .map((r) => JobRow.parse(r));
    return { total, rows };
  }

  /** A page of sources (in queue order: by their first job), each with its jobs that match the filter. */
  sourcesPage(
    filter: JobFilter,
    offset: number,
    limit: number,
  ): { total: number; groups: { source: string; rows: JobRow[] }[] } {
    const w = where(filter);
    const total = (
      this.db.prepare(`SELECT count(DISTINCT source) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as {
        n: number;
      }
    ).n;
    const sources = (
      this.db
        .prepare(
          `SELECT source, min(id) AS first FROM jobs WHERE ${w.sql} GROUP BY source ORDER BY first LIMIT @limit OFFSET @offset`,
        )
        .all({ ...w.params, limit, offset }) as { source: string }[]
    ).map((r) => r.source);
    const rows = this.db
      .prepare(
        `SELECT * FROM jobs WHERE ${w.sql} AND source IN (SELECT value FROM json_each(@sources)) ORDER BY id`,
      )
      .all({ ...w.params, sources: JSON.stringify(sources) })
      .map((r) => JobRow.parse(r));
    const bySource = new Map<string, JobRow[]>(sources.map((s) => [s, []]));
    for (const r of rows) bySource.get(r.source)?.push(r);
    return { total, groups: sources.map((source) => ({ source, rows: bySource.get(source) ?? [] })) };
  }

  /** Ids matching a filter, in queue order. */
  select(filter: JobFilter): number[] {
    const w = where(filter);
    return (
      this.db.prepare(`SELECT id FROM jobs WHERE ${w.sql} ORDER BY id`).all(w.params) as { id: number }[]
    ).map((r) => r.id);
  }

  countsByState(): Partial<Record<JobState, number>> {
    const out: Partial<Record<JobState, number>> = {};
    for (const r of this.q.counts.all() as { state: JobState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** Credits the queue will still spend (estimates of jobs not yet charged) and has been charged. */
  creditSums(): { committed: number; charged: number } {
    return this.q.sums.get() as { committed: number; charged: number };
  }

  /**
   * Claims up to `limit` due jobs of one step in an IMMEDIATE transaction, each under a new token. `busy`
   * jobs are left alone (a worker of this process still runs them).
   */
  claim(
    step: 'submit' | 'fetch',
    limit: number,
    service: string,
    busy: (id: number) => boolean = () => false,
    now = Date.now(),
  ): { row: JobRow; token: string }[] {
    if (limit <= 0) return [];
    return this.db
      .transaction(() => {
        const claimed: { row: JobRow; token: string }[] = [];
        for (;;) {
          const batch = this.q.due[step].all(now, service) as { id: number }[];
          const before = claimed.length;
          for (const { id } of batch) {
            if (claimed.length >= limit) break;
            if (busy(id)) continue;
            const token = randomUUID();
            if (this.q.lease.run(token, service, id).changes === 1) {
              const row = this.get(id);
              if (row) claimed.push({ row, token });
            }
          }
          // A concurrency above one batch (the CLI allows any) takes the next batch: the leased are skipped.
          if (batch.length < MAX_CONCURRENCY || claimed.length >= limit || claimed.length === before) break;
        }
        return claimed;
      })
      .immediate();
  }

  /** Still the holder? A user action (cancel, retry, pause of an idle job) takes the token away. */
  holds(id: number, token: string): boolean {
    return this.q.holds.get(id, token) !== undefined;
  }

  release(id: number, token: string): void {
    this.q.release.run(id, token);
  }

  /** Has the user asked this job to pause? One column, not the whole row (asked between HTTP steps). */
  pauseRequested(id: number): boolean {
    const r = this.q.pauseRequested.get(id) as { pause_requested: unknown } | undefined;
    return r !== undefined && r.pause_requested !== 0;
  }

  /**
   * `fn` in one transaction (nested ones become savepoints), its wrapper made once per function rather
   * than on every call: the hot paths (a job's every change of state) pass the same function each time.
   * IMMEDIATE, as every write transaction here: a deferred one that read first and then writes after another
   * process (a second `dubdesk`, an `add` from a shell) wrote fails at once with SQLITE_BUSY instead of
   * waiting out the busy timeout.
   */
  tx<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    let t = this.transactions.get(fn);
    if (!t) {
      t = this.db.transaction(fn as (...a: unknown[]) => unknown);
      this.transactions.set(fn, t);
    }
    return t.immediate(...args) as R;
  }

  /**
   * Reads in one transaction (DEFERRED: it never writes). Each statement on its own is a transaction too,
   * and in WAL mode every one takes and drops a read lock on the shared index with `fcntl` (more after a
   * write, to move a read mark): the runner's look around the queue is one lock, not five.
   */
  read<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    if (this.db.inTransaction) return fn(...args);
    let t = this.reads.get(fn);
    if (!t) {
      t = this.db.transaction(fn as (...a: unknown[]) => unknown);
      this.reads.set(fn, t);
    }
    return t.deferred(...args) as R;
  }

  /** Jobs a worker held when its process died; the runner that takes the queue lock frees them. */
  resetLeases(): number {
    return this.q.resetAll.run().changes;
  }

  leasedCount(): number {
    return (this.q.leased.get() as { n: number }).n;
  }

  tracking(service: string): JobRow[] {
    return this.q.tracking.all(service).map((r) => JobRow.parse(r));
  }

  trackingCount(service: string): number {
    return (this.q.trackingCount.get(service) as { n: number }).n;
  }

  /** Live jobs at a step, whether due now or waiting for a retry. */
  liveInStep(step: 'submit' | 'fetch', service: string): number {
    return (this.q.liveInStep.get(step, service) as { n: number }).n;
  }

  /** Jobs of this service that a run still has to finish (paused ones wait for the user, not the run). */
  unfinishedCount(service: string): number {
    return (this.q.unfinished.get(service) as { n: number }).n;
  }

  /** When the next job of a step (or of either) is due; null when none waits. */
  nextDueAt(service: string, step?: 'submit' | 'fetch'): number | null {
    if (!step) {
      const [a, b] = [this.nextDueAt(service, 'submit'), this.nextDueAt(service, 'fetch')];
      return a === null ? b : b === null ? a : Math.min(a, b);
    }
    const r = this.q.nextDue[step].get(service) as { t: number } | undefined;
    return r?.t ?? null;
  }

  /** Remote ids other jobs already own: a reconciled create must never adopt one of them. */
  remoteIdsOwnedByOthers(id: number): Set<string> {
    return new Set((this.q.remoteIdsInUse.all(id) as { remote_id: string }[]).map((r) => r.remote_id));
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

  /** The one UPDATE of a job row; `jobs/life.ts` uses it for state changes, `record` for the rest. */
  write(id: number, guard: WriteGuard, patch: AnyPatch, now: number): void {
    const keys = Object.keys(patch).sort();
    const kind = typeof guard === 'string' ? guard : 'token';
    const sig = `${keys.join(',')}|${kind}`;
    let stmt = this.recordStatements.get(sig);
    if (!stmt) {
      for (const k of keys) if (!(k in JobRow.shape)) throw new Error(`unknown column ${k}`);
      const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @__now'].join(', ');
      const cond = {
        token: 'lease_token = @__token',
        tracked: `lease_token IS NULL AND step = 'track' AND state NOT IN ${NOT_WORKABLE}`,
        user: '1',
      }[kind];
      stmt = this.db.prepare(`UPDATE jobs SET ${sets} WHERE id = @__id AND ${cond}`);
      this.recordStatements.set(sig, stmt);
    }
    const token = typeof guard === 'string' ? {} : { __token: guard.token };
    const info = stmt.run({ ...patch, ...token, __id: id, __now: now });
    if (info.changes !== 1) throw new LeaseLostError(id);
  }

  /** Takes the job away from whoever works it (a user action wins over a worker). */
  revoke(id: number): void {
    this.db.prepare(`UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE id = ?`).run(id);
  }

  appendHistory(
    id: number,
    at: number,
    from: JobState | null,
    to: JobState,
    event: string,
    reason: string | null,
    /** False for the entries of a bulk add: the engine logs the batch once, not each of its jobs. */
    notify = true,
  ): void {
    this.q.insertHistory.run(id, at, from, to, event, reason);
    if (notify) this.onHistory?.(id, from, to, event, reason);
  }

  history(id: number): HistoryRow[] {
    return this.q.history.all(id).map((r) => HistoryRow.parse(r));
  }

  /** A job's outputs in the order they were first recorded. */
  outputs(jobId: number): OutputRow[] {
    return inRecordOrder(this.q.outputs.all(jobId)).map((r) => OutputRow.parse(r));
  }

  /** Outputs of many jobs at once, by job id. */
  outputsOf(ids: readonly number[]): Map<number, OutputRow[]> {
    const out = new Map<number, OutputRow[]>();
    if (ids.length === 0) return out;
    for (const r of inRecordOrder(this.q.outputsOf.all(JSON.stringify(ids)))) {
      const o = OutputRow.parse(r);
      const list = out.get(o.job_id);
      if (list) list.push(o);
      else out.set(o.job_id, [o]);
    }
    return out;
  }

  putOutput(row: OutputRow): void {
    this.q.putOutput.run(row);
  }

  /** Several output records in one commit (one alone needs no transaction of its own). */
  putOutputs(rows: readonly OutputRow[]): void {
    if (rows.length === 1 && rows[0]) this.putOutput(rows[0]);
    else if (rows.length > 1) this.tx(this.putEach, rows);
  }

  private readonly putEach = (rows: readonly OutputRow[]): void => {
    for (const r of rows) this.q.putOutput.run(r);
  };

  clearPendingOutputs(jobId: number): void {
    this.q.clearPendingOutputs.run(jobId);
  }

  /**
   * Takes finished jobs off the queue (their files stay); returns the ids taken off. Failed and canceled
   * jobs are deleted; completed ones are only hidden: what was dubbed, and which files are Dubdesk's own
   * results, must outlive the list (else adding the folder again pays again, and dubs the dubs).
   */
  remove(ids: readonly number[], now = Date.now()): number[] {
    const removed: number[] = [];
    this.db
      .transaction(() => {
        for (const id of ids)
          if (this.q.remove.run(id).changes === 1 || this.q.clear.run(now, id).changes === 1)
            removed.push(id);
      })
      .immediate();
    return removed;
  }

  setting(key: string): string | undefined {
    return (this.q.setting.get(key) as { value: string } | undefined)?.value;
  }

  setSetting(key: string, value: string | null): void {
    if (value === null) this.q.deleteSetting.run(key);
    else this.q.putSetting.run(key, value);
  }
}

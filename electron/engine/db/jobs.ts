import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { API_GENERATIONS, JOB_STATES } from '../../../shared/domain';
import type { Db } from './open';

/** A row of `jobs` exactly as stored; parsed on the way out because the database is a file on disk. */
export const JobRow = z.object({
  id: z.number().int(),
  source: z.string(),
  source_kind: z.enum(['file', 'url']),
  source_name: z.string(),
  source_type: z.string().nullable(),
  source_bytes: z.number().int().nullable(),
  duration: z.number().nullable(),
  dest_lang: z.string(),
  source_lang: z.string(),
  api: z.enum(API_GENERATIONS),
  studio: z.number().int(),
  out_dir: z.string(),
  outputs_wanted: z.string(),
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
  error: z.string().nullable(),
  error_kind: z.string().nullable(),
  attempts: z.number().int(),
  next_run_at: z.number().int(),
  lease_token: z.string().nullable(),
  lease_expires_at: z.number().int().nullable(),
  measured_duration: z.number().nullable(),
  credits_charged: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  completed_at: z.number().int().nullable(),
});
export type JobRow = z.infer<typeof JobRow>;

/** Columns a worker may change; the id, source and creation time never change. */
export type JobPatch = Partial<
  Omit<
    JobRow,
    'id' | 'source' | 'source_kind' | 'created_at' | 'updated_at' | 'lease_token' | 'lease_expires_at'
  >
>;

export type NewJob = Pick<
  JobRow,
  | 'source'
  | 'source_kind'
  | 'source_name'
  | 'source_type'
  | 'source_bytes'
  | 'duration'
  | 'dest_lang'
  | 'source_lang'
  | 'api'
  | 'studio'
  | 'out_dir'
  | 'outputs_wanted'
>;

export const OutputRow = z.object({
  job_id: z.number().int(),
  type: z.string(),
  path: z.string(),
  bytes: z.number().int().nullable(),
  done: z.number().int(),
});
export type OutputRow = z.infer<typeof OutputRow>;

export class LeaseLostError extends Error {
  constructor(id: number) {
    super(`job ${id}: lease lost (another worker or a cancel took it)`);
  }
}

const LIVE = `state NOT IN ('completed', 'canceled')`;
const TERMINAL_OR_PAUSED = `('completed', 'failed', 'canceled', 'paused')`;

/** Every query on the job tables, as prepared statements. */
export class JobStore {
  private readonly patchStatements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      live: db.prepare(`SELECT * FROM jobs WHERE source = ? AND dest_lang = ? AND ${LIVE}`),
      insert: db.prepare(`
        INSERT INTO jobs (source, source_kind, source_name, source_type, source_bytes, duration, dest_lang, source_lang, api,
          studio, out_dir, outputs_wanted, state, step, created_at, updated_at)
        VALUES (@source, @source_kind, @source_name, @source_type, @source_bytes, @duration, @dest_lang, @source_lang, @api,
          @studio, @out_dir, @outputs_wanted, 'queued', 'submit', @now, @now)`),
      get: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      all: db.prepare(`SELECT * FROM jobs ORDER BY id`),
      due: db.prepare(`
        SELECT id FROM jobs WHERE step = ? AND next_run_at <= ? AND lease_token IS NULL AND state NOT IN ${TERMINAL_OR_PAUSED}
        ORDER BY next_run_at, id LIMIT ?`),
      lease: db.prepare(
        `UPDATE jobs SET lease_token = ?, lease_expires_at = ? WHERE id = ? AND lease_token IS NULL`,
      ),
      renew: db.prepare(`UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_token = ?`),
      release: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?`,
      ),
      resetLapsed: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE lease_token IS NOT NULL AND lease_expires_at < ?`,
      ),
      resetAll: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE lease_token IS NOT NULL`,
      ),
      tracking: db.prepare(
        `SELECT * FROM jobs WHERE step = 'track' AND state NOT IN ${TERMINAL_OR_PAUSED} ORDER BY id`,
      ),
      trackingCount: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = 'track' AND state NOT IN ${TERMINAL_OR_PAUSED}`,
      ),
      liveInStep: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = ? AND state NOT IN ${TERMINAL_OR_PAUSED}`,
      ),
      unfinished: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE state NOT IN ('completed', 'failed', 'canceled')`,
      ),
      nextDue: db.prepare(
        `SELECT min(next_run_at) AS t FROM jobs WHERE step IN ('submit', 'fetch') AND lease_token IS NULL AND state NOT IN ${TERMINAL_OR_PAUSED}`,
      ),
      remoteIdsInUse: db.prepare(`SELECT remote_id FROM jobs WHERE remote_id IS NOT NULL AND id != ?`),
      outputs: db.prepare(`SELECT * FROM outputs WHERE job_id = ? ORDER BY rowid`),
      allOutputs: db.prepare(`SELECT * FROM outputs ORDER BY job_id, rowid`),
      putOutput: db.prepare(`
        INSERT INTO outputs (job_id, type, path, bytes, done) VALUES (@job_id, @type, @path, @bytes, @done)
        ON CONFLICT (job_id, type) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, done = excluded.done`),
      clearOutputs: db.prepare(`DELETE FROM outputs WHERE job_id = ? AND done = 0`),
      setting: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      putSetting: db.prepare(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      deleteSetting: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  /**
   * Adds jobs; a source+language that already has a live job is not added twice. Failed ones are reported
   * apart: adding them again means retrying them, which the engine does (without paying twice).
   */
  add(jobs: readonly NewJob[], now = Date.now()): { added: number[]; existing: number[]; failed: number[] } {
    const result = { added: [] as number[], existing: [] as number[], failed: [] as number[] };
    this.db
      .transaction(() => {
        for (const job of jobs) {
          const live = this.q.live.get(job.source, job.dest_lang);
          if (live) {
            const row = JobRow.parse(live);
            if (row.state === 'failed') {
              result.failed.push(row.id);
            } else {
              result.existing.push(row.id);
            }
            continue;
          }
          const info = this.q.insert.run({ ...job, now });
          result.added.push(Number(info.lastInsertRowid));
        }
      })
      .immediate();
    return result;
  }

  get(id: number): JobRow | undefined {
    const row = this.q.get.get(id);
    return row ? JobRow.parse(row) : undefined;
  }

  all(): JobRow[] {
    return this.q.all.all().map((r) => JobRow.parse(r));
  }

  /** Claims up to `limit` due jobs of one step inside an IMMEDIATE transaction, each under a new lease token. */
  claim(
    step: 'submit' | 'fetch',
    limit: number,
    leaseMs: number,
    now = Date.now(),
  ): { row: JobRow; token: string }[] {
    if (limit <= 0) return [];
    return this.db
      .transaction(() => {
        const ids = this.q.due.all(step, now, limit) as { id: number }[];
        const claimed: { row: JobRow; token: string }[] = [];
        for (const { id } of ids) {
          const token = randomUUID();
          if (this.q.lease.run(token, now + leaseMs, id).changes === 1) {
            const row = this.get(id);
            if (row) claimed.push({ row: { ...row, lease_token: token }, token });
          }
        }
        return claimed;
      })
      .immediate();
  }

  renew(id: number, token: string, leaseMs: number): boolean {
    return this.q.renew.run(Date.now() + leaseMs, id, token).changes === 1;
  }

  release(id: number, token: string): void {
    this.q.release.run(id, token);
  }

  /** A lease survives its holder's crash only until it lapses; a runner that holds the run lock clears them all. */
  resetLeases(all: boolean, now = Date.now()): number {
    return (all ? this.q.resetAll.run() : this.q.resetLapsed.run(now)).changes;
  }

  /** Only the lease holder may write (token given); the poller and user actions write unleased rows (token null). */
  patch(id: number, token: string | null, patch: JobPatch, now = Date.now()): void {
    this.update(id, token === null ? 'free' : 'leased', patch, { __token: token }, now);
  }

  /**
   * The poller's write: only while the job is still tracked and nobody ended it meanwhile, so a poll that
   * read the job before a cancel cannot bring it back to life.
   */
  patchTracked(id: number, patch: JobPatch, now = Date.now()): void {
    this.update(id, 'tracked', patch, {}, now);
  }

  private update(
    id: number,
    guard: 'free' | 'leased' | 'tracked',
    patch: JobPatch,
    extra: Record<string, unknown>,
    now: number,
  ): void {
    const keys = Object.keys(patch).sort();
    const sig = `${keys.join(',')}|${guard}`;
    let stmt = this.patchStatements.get(sig);
    if (!stmt) {
      for (const k of keys) if (!(k in JobRow.shape)) throw new Error(`unknown column ${k}`);
      const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @__now'].join(', ');
      const where = {
        free: 'lease_token IS NULL',
        leased: 'lease_token = @__token',
        tracked: `lease_token IS NULL AND step = 'track' AND state NOT IN ${TERMINAL_OR_PAUSED}`,
      }[guard];
      stmt = this.db.prepare(`UPDATE jobs SET ${sets} WHERE id = @__id AND ${where}`);
      this.patchStatements.set(sig, stmt);
    }
    const info = stmt.run({ ...patch, ...extra, __id: id, __now: now });
    if (info.changes !== 1) throw new LeaseLostError(id);
  }

  /** User actions (cancel, retry) win over a worker: they clear its lease so its next write fails. */
  force(id: number, patch: JobPatch, now = Date.now()): void {
    this.db.transaction(() => {
      this.q.release.run(id, this.get(id)?.lease_token ?? '');
      this.patch(id, null, patch, now);
    })();
  }

  /** Back to the start: a new remote dub will be made (the old one failed on the service or vanished). */
  requeue(id: number, abandonedRemoteIds: string, now = Date.now()): void {
    this.force(
      id,
      {
        abandoned_remote_ids: abandonedRemoteIds,
        state: 'queued',
        step: 'submit',
        remote_id: null,
        upload_url: null,
        upload_expires_at: null,
        uploaded: 0,
        create_pending: 0,
        remote_status: null,
        progress: 0,
        waiting: null,
        error: null,
        error_kind: null,
        attempts: 0,
        next_run_at: 0,
        completed_at: null,
      },
      now,
    );
    this.q.clearOutputs.run(id);
  }

  tracking(): JobRow[] {
    return this.q.tracking.all().map((r) => JobRow.parse(r));
  }

  trackingCount(): number {
    return (this.q.trackingCount.get() as { n: number }).n;
  }

  /** Live jobs at a step, whether due now or waiting for a retry. */
  liveInStep(step: 'submit' | 'fetch'): number {
    return (this.q.liveInStep.get(step) as { n: number }).n;
  }

  unfinishedCount(): number {
    return (this.q.unfinished.get() as { n: number }).n;
  }

  nextDueAt(): number | null {
    return (this.q.nextDue.get() as { t: number | null }).t;
  }

  /** Remote ids other jobs already own: a reconciled create must never adopt one of them. */
  remoteIdsOwnedByOthers(id: number): Set<string> {
    return new Set((this.q.remoteIdsInUse.all(id) as { remote_id: string }[]).map((r) => r.remote_id));
  }

  outputs(jobId: number): OutputRow[] {
    return this.q.outputs.all(jobId).map((r) => OutputRow.parse(r));
  }

  allOutputs(): OutputRow[] {
    return this.q.allOutputs.all().map((r) => OutputRow.parse(r));
  }

  putOutput(row: OutputRow): void {
    this.q.putOutput.run(row);
  }

  setting(key: string): string | undefined {
    return (this.q.setting.get(key) as { value: string } | undefined)?.value;
  }

  setSetting(key: string, value: string | null): void {
    if (value === null) this.q.deleteSetting.run(key);
    else this.q.putSetting.run(key, value);
  }
}

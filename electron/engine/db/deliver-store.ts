import { z } from 'zod';
import { DeliverChoiceSchema, QcSchema, type DeliverChoice, type Qc } from '../../../shared/contract/deliver';
import type { Db } from './open';
import { JobRow, OutputRow } from './job-store/rows';

/** A job's delivery choices, or null for a job made before they existed (nothing is made for it). */
export function deliverOf(row: Pick<JobRow, 'deliver'>): DeliverChoice | null {
  if (row.deliver === null) return null;
  try {
    return DeliverChoiceSchema.parse(JSON.parse(row.deliver));
  } catch {
    return DeliverChoiceSchema.parse({});
  }
}

/** A job's QC as stored, checked: a damaged value reads as not checked yet (it is then checked again). */
export function qcOf(row: Pick<JobRow, 'qc'>): Qc | null {
  if (row.qc === null) return null;
  try {
    const parsed = QcSchema.safeParse(JSON.parse(row.qc));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const PackageRow = z.object({
  id: z.number().int(),
  source: z.string(),
  out_dir: z.string(),
  format: z.enum(['mkv', 'mp4']),
  default_audio: z.string(),
  naming: z.enum(['suffix', 'folders']),
  state: z.enum(['waiting', 'making', 'done', 'failed']),
  now: z.number().int(),
  job_ids: z.string(),
  languages: z.string(),
  path: z.string().nullable(),
  error: z.string().nullable(),
  updated_at: z.number().int(),
});
export type PackageRow = z.infer<typeof PackageRow>;

const Ids = z.array(z.number().int());
const Langs = z.array(z.string());
export const idsOf = (json: string): number[] => {
  const parsed = Ids.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
};
export const languagesOf = (json: string): string[] => {
  const parsed = Langs.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
};

export interface MadeSrt {
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * The records of what is handed on: each finished dub's QC and SubRip file, and each source's package.
 * Every statement about them is here.
 */
export class DeliverStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      due: db.prepare(
        `SELECT * FROM jobs WHERE state = 'completed' AND deliver IS NOT NULL AND qc IS NULL ORDER BY id LIMIT ?`,
      ),
      outputs: db.prepare(`SELECT * FROM outputs WHERE job_id = ? AND done = 1 ORDER BY rowid`),
      putOutput: db.prepare(
        `INSERT INTO outputs (job_id, type, path, bytes, done, content_hash) VALUES (?, ?, ?, ?, 1, ?)
          ON CONFLICT (job_id, type) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, done = 1,
            content_hash = excluded.content_hash`,
      ),
      dropOutput: db.prepare(`DELETE FROM outputs WHERE job_id = ? AND type = ?`),
      setQc: db.prepare(`UPDATE jobs SET qc = ? WHERE id = ? AND state = 'completed'`),
      siblings: db.prepare(
        `SELECT * FROM jobs WHERE source = ? AND out_dir = ? AND cleared_at IS NULL ORDER BY id`,
      ),
      sourceJobs: db.prepare(`SELECT * FROM jobs WHERE source = ? AND cleared_at IS NULL ORDER BY id`),
      packageOf: db.prepare(`SELECT * FROM packages WHERE source = ? AND out_dir = ?`),
      packagesOfSource: db.prepare(`SELECT * FROM packages WHERE source = ? ORDER BY updated_at DESC`),
      duePackages: db.prepare(`SELECT * FROM packages WHERE state IN ('waiting', 'making') ORDER BY id`),
      want: db.prepare(
        `INSERT INTO packages (source, out_dir, format, default_audio, naming, state, now, updated_at)
          VALUES (@source, @out_dir, @format, @default_audio, @naming, 'waiting', @now, @at)
          ON CONFLICT (source, out_dir) DO UPDATE SET format = excluded.format,
            default_audio = excluded.default_audio, naming = excluded.naming, state = 'waiting',
            now = max(packages.now, excluded.now), error = NULL, updated_at = excluded.updated_at`,
      ),
      setState: db.prepare(`UPDATE packages SET state = ?, updated_at = ? WHERE id = ?`),
      // A language finished while it was being made: it stays waiting (to be made again with that one).
      done: db.prepare(
        `UPDATE packages SET state = CASE state WHEN 'waiting' THEN 'waiting' ELSE 'done' END, now = 0,
          job_ids = ?, languages = ?, path = ?, error = NULL, updated_at = ? WHERE id = ?`,
      ),
      failed: db.prepare(
        `UPDATE packages SET state = CASE state WHEN 'waiting' THEN 'waiting' ELSE 'failed' END, now = 0,
          error = ?, updated_at = ? WHERE id = ?`,
      ),
    };
  }

  /** Completed jobs whose QC (and SubRip file) is still to do, oldest first. */
  dueJobs(limit: number): JobRow[] {
    return this.q.due.all(limit).map((r) => JobRow.parse(r));
  }

  /** A job's finished outputs, in the order they were recorded. */
  outputs(jobId: number): OutputRow[] {
    return this.q.outputs.all(jobId).map((r) => OutputRow.parse(r));
  }

  /**
   * A dub's QC, with the SubRip file made from its subtitles (and its WebVTT record gone when SubRip alone
   * was asked for), in one commit; and its source's package wanted (again) when the batch asked for one.
   * False when the job is no longer completed (cleared, moved on): nothing is written then.
   */
  recordJob(row: JobRow, qc: Qc, srt: MadeSrt | null, droppedVtt: boolean, now = Date.now()): boolean {
    return this.db
      .transaction(() => {
        if (this.q.setQc.run(JSON.stringify(qc), row.id).changes === 0) return false;
        if (srt) this.q.putOutput.run(row.id, 'translated_subtitle_srt', srt.path, srt.bytes, srt.sha256);
        if (droppedVtt) this.q.dropOutput.run(row.id, 'translated_subtitle');
        const choice = deliverOf(row);
        if (choice && choice.package !== 'none')
          this.wantPackage(row.source, row.out_dir, choice, row.naming, false, now);
        return true;
      })
      .immediate();
  }

  /** Marks a source's package due (made once its languages are done; at once with `now`). */
  wantPackage(
    source: string,
    outDir: string,
    choice: Pick<DeliverChoice, 'package' | 'defaultAudio'>,
    naming: 'suffix' | 'folders',
    now: boolean,
    at = Date.now(),
  ): void {
    if (choice.package === 'none') return;
    this.q.want.run({
      source,
      out_dir: outDir,
      format: choice.package,
      default_audio: choice.defaultAudio,
      naming,
      now: now ? 1 : 0,
      at,
    });
  }

  /** The jobs of a source that write to one folder (not cleared), oldest first. */
  siblings(source: string, outDir: string): JobRow[] {
    return this.q.siblings.all(source, outDir).map((r) => JobRow.parse(r));
  }

  /** Every job of a source in the live list, whatever its folder, oldest first. */
  sourceJobs(source: string): JobRow[] {
    return this.q.sourceJobs.all(source).map((r) => JobRow.parse(r));
  }

  packageOf(source: string, outDir: string): PackageRow | null {
    const r = this.q.packageOf.get(source, outDir);
    return r ? PackageRow.parse(r) : null;
  }

  /** A source's packages, the latest first (one per output folder). */
  packagesOf(source: string): PackageRow[] {
    return this.q.packagesOfSource.all(source).map((r) => PackageRow.parse(r));
  }

  /** Packages waiting for their languages or to be made again, and those a stopped run was making. */
  duePackages(): PackageRow[] {
    return this.q.duePackages.all().map((r) => PackageRow.parse(r));
  }

  making(id: number, at = Date.now()): void {
    this.q.setState.run('making', at, id);
  }

  /** Back to waiting (its languages are not all done yet). */
  waiting(id: number, at = Date.now()): void {
    this.q.setState.run('waiting', at, id);
  }

  done(
    id: number,
    jobIds: readonly number[],
    languages: readonly string[],
    path: string,
    at = Date.now(),
  ): void {
    this.q.done.run(JSON.stringify(jobIds), JSON.stringify(languages), path, at, id);
  }

  failed(id: number, message: string, at = Date.now()): void {
    this.q.failed.run(message, at, id);
  }
}

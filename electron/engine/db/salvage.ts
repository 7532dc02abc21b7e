import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cellsOf, JobRow, OutputRow } from './job-store/rows';
import type { Db } from './types';

/** What a restore got back from the damaged file: jobs put back, and why the rest could not be read. */
export interface Salvaged {
  jobs: number;
  /** Why (part of) the file could not be read, in SQLite's words; null when every row was read. */
  unreadable: string | null;
}

/** Ids read one by one past a damaged page: a gap this long means the table ended. */
const MISSES_TO_END = 1000;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 200);

/**
 * The readable rows of a damaged queue database: each job with its outputs, the whole table at once, or
 * row by row past a damaged page. Read from a copy (with its WAL), so the damaged file stays as it was.
 */
function readDamaged(file: string): {
  rows: Record<string, unknown>[];
  outputs: Map<number, unknown[]>;
  why: string | null;
} {
  const dir = mkdtempSync(join(tmpdir(), 'dubdesk-salvage-'));
  const copy = join(dir, basename(file));
  const rows: Record<string, unknown>[] = [];
  const outputs = new Map<number, unknown[]>();
  let why: string | null = null;
  let db: Database.Database | null = null;
  try {
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    db = new Database(copy, { fileMustExist: true });
    const all = db.prepare(`SELECT * FROM jobs ORDER BY id`);
    try {
      rows.push(...(all.all() as Record<string, unknown>[]));
    } catch (e) {
      why = messageOf(e);
      const one = db.prepare(`SELECT * FROM jobs WHERE id = ?`);
      for (let id = 1, misses = 0; misses < MISSES_TO_END; id++) {
        try {
          const row = one.get(id) as Record<string, unknown> | undefined;
          if (row) rows.push(row);
          misses = row ? 0 : misses + 1;
        } catch {
          misses++;
        }
      }
    }
    const of = db.prepare(`SELECT * FROM outputs WHERE job_id = ?`);
    for (const row of rows) {
      try {
        outputs.set(Number(row.id), of.all(row.id));
      } catch (e) {
        why ??= messageOf(e);
      }
    }
  } catch (e) {
    why = messageOf(e);
  } finally {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, outputs, why };
}

/** A row read from the damaged file, as the current schema has it (what it lacks, as the column's default). */
function asJob(raw: Record<string, unknown>, defaults: Record<string, unknown>): JobRow | null {
  const parsed = JobRow.safeParse({ ...defaults, ...raw, lease_token: null, lease_expires_at: null });
  if (!parsed.success) return null;
  // A step under way when the disk failed: it resumes from what was recorded, as after a crash.
  return parsed.data.state === 'uploading' ? { ...parsed.data, state: 'queued' } : parsed.data;
}

/**
 * Puts into `db` (a backup just restored) the jobs of the damaged file that are newer than its own: a job
 * it does not have (added since the backup), or has in an older state (its dub made, charged or fetched
 * since). Each keeps its id and gets a line in its history; its recorded outputs come with it. A row whose
 * id the backup gives to another job, or that would break the queue's rules, is left out and counted.
 */
export function salvageInto(db: Db, damagedFile: string, now = Date.now()): Salvaged {
  const read = readDamaged(damagedFile);
  const columns = (db.pragma('table_info(jobs)') as { name: string; dflt_value: string | null }[]).map(
    (c) => c.name,
  );
  const defaults = Object.fromEntries(columns.map((c) => [c, null]));
  const mine = db.prepare(`SELECT * FROM jobs WHERE id = ?`);
  // An INSERT, or an UPDATE of the job the backup has: a REPLACE would delete that row without its triggers,
  // and the counts, sources and committed credits they keep would count the job twice.
  const insert = db.prepare(
    `INSERT INTO jobs (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const update = db.prepare(
    `UPDATE jobs SET ${columns
      .filter((c) => c !== 'id')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id`,
  );
  const note = db.prepare(
    `INSERT INTO job_history (job_id, at, from_state, to_state, event, reason) VALUES (?, ?, NULL, ?, 'recovered', ?)`,
  );
  const putOutput = db.prepare(
    `INSERT OR REPLACE INTO outputs (job_id, type, path, bytes, done, content_hash)
      VALUES (@job_id, @type, @path, @bytes, @done, @content_hash)`,
  );
  let jobs = 0;
  let left = 0;
  for (const raw of read.rows) {
    const job = asJob(raw, defaults);
    if (!job) {
      left++;
      continue;
    }
    const have = mine.get(job.id) as Record<string, unknown> | undefined;
    const same =
      have &&
      have.created_at === job.created_at &&
      have.source === job.source &&
      have.dest_lang === job.dest_lang;
    if (have && !same) left++;
    if (have && (!same || Number(have.updated_at) >= job.updated_at)) continue;
    try {
      db.transaction(() => {
        const cells = cellsOf(job);
        (have ? update : insert).run(Object.fromEntries(columns.map((c) => [c, cells[c] ?? null])));
        note.run(job.id, now, job.state, 'put back from the damaged database after a restore');
        for (const o of read.outputs.get(job.id) ?? []) {
          const out = OutputRow.safeParse(o);
          const hash = (o as { content_hash?: unknown }).content_hash;
          if (out.success)
            putOutput.run({ ...out.data, content_hash: typeof hash === 'string' ? hash : null });
        }
      }).immediate();
      jobs++;
    } catch {
      left++; // another job of the same file and language is live in the backup: that one stays
    }
  }
  const why = left ? `${left} job(s) could not be put back` : null;
  return { jobs, unreadable: [read.why, why].filter((w) => w !== null).join('; ') || null };
}

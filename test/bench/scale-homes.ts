/**
 * Data folders of any size for the `scale:` figures, built fast: the rows are written with a few SQL
 * statements straight into a database the engine opened and migrated, as the engine of this version leaves
 * them after real runs (`test/unit/scale-homes.test.ts` builds a small home this way and through the job
 * store's own writes, and finds every table the same). A finished job looks like one a real run leaves:
 * completed, charged, two results on disk, six history entries. Jobs are dated over the last two weeks, so
 * none has aged into the history: every one is listed. The triggers keep the aggregates, the sources' list
 * and the search index as they do for the engine's own writes.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../electron/engine/db/open';

export const LANGS = ['es', 'fr', 'de', 'it', 'pt'];
/** A finished job's states, in order: each step's history entry. */
export const LIFE = ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed'] as const;
/** The jobs are dated over this span, the last one now. */
export const SPAN_MS = 14 * 86_400_000;

export interface Home {
  home: string;
  jobs: number;
  finished: number;
}

/**
 * Job `i` of a home (0-based; id `i + 1`), in SQL over the temporary table `numbers`: its source `s` (5
 * languages each), language, name, folder and date, as the test's build through the job store says in
 * JavaScript.
 */
const JOB_CELLS = `
  SELECT i, i + 1 AS id, s, lang, name, folder, folder || '/' || name AS source,
    @now - ${SPAN_MS} + (${SPAN_MS} * i) / max(1, @jobs) AS at,
    30 + (s % 600) AS duration
  FROM (SELECT i, s, json_extract(@langs, '$[' || (i % ${LANGS.length}) || ']') AS lang,
          CASE WHEN s % 7 = 0 THEN 'interview with a long descriptive name, take ' ELSE 'clip-' END
            || printf('%06d', s) || '.mp4' AS name,
          '/home/user/Videos/project-' || (s / 500) AS folder
        FROM (SELECT value AS i, value / ${LANGS.length} AS s FROM temp.numbers))`;

/** A home with `jobs` jobs (5 languages per source) of which `finished` are completed, the last dated `now`. */
export function buildHome(work: string, jobs: number, finished: number, now = Date.now()): Home {
  const home = mkdtempSync(join(work, `home-${jobs}-`));
  const db = openDatabase(join(home, 'dubdesk.db'));
  const params = { now, jobs, finished, langs: JSON.stringify(LANGS), life: JSON.stringify(LIFE) };
  try {
    db.pragma('cache_size = -262144'); // the whole build in memory until its commit
    db.pragma('synchronous = OFF'); // a bench's scratch home: no flush to the disk's platters at the commit
    db.function('base36', { deterministic: true }, (n) => Number(n).toString(36));
    db.transaction(() => {
      db.exec(`CREATE TEMP TABLE numbers (value INTEGER PRIMARY KEY)`);
      db.prepare(
        `WITH RECURSIVE n(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM n WHERE value + 1 < @jobs)
         INSERT INTO temp.numbers SELECT value FROM n`,
      ).run({ jobs });
      // The job as the engine inserts it, with what its run wrote once it completed (job i < finished).
      db.prepare(
        `INSERT INTO jobs (id, source, source_kind, source_name, source_type, source_bytes, source_mtime,
           source_hash, reuse_results, duration, dest_lang, source_lang, api, studio, out_dir, outputs_wanted,
           naming, service, watch_folder_id, upload_once, deliver, send, state, step, created_at, updated_at,
           queue_order, remote_id, progress, measured_duration, credits_charged, completed_at, made_from, uploaded)
         SELECT id, source, 'file', name, 'video/mp4', 10000000 + s, at - 60000,
           printf('%064x', s * 2654435761), 0, duration, lang, 'auto', 'v2', 0, folder, '"default"',
           'suffix', 'http://127.0.0.1:9', NULL, 0, NULL, 'file',
           CASE WHEN done THEN 'completed' ELSE 'queued' END, CASE WHEN done THEN 'done' ELSE 'submit' END,
           at, CASE WHEN done THEN at + 5000 ELSE at END, id,
           CASE WHEN done THEN 'dub_' || base36(id) END, CASE WHEN done THEN 100 ELSE 0 END,
           CASE WHEN done THEN duration END, CASE WHEN done THEN duration END,
           CASE WHEN done THEN at + 5000 END, CASE WHEN done THEN 'upload' END, done
         FROM (SELECT *, i < @finished AS done FROM (${JOB_CELLS})) ORDER BY i`,
      ).run(params);
      // Its history: added, then each step to completed; an open job's added alone.
      db.prepare(
        `INSERT INTO job_history (job_id, at, from_state, to_state, event, reason)
         SELECT j.id, j.at + k.key * 1000,
           CASE WHEN k.key THEN json_extract(@life, '$[' || (k.key - 1) || ']') END, k.value,
           CASE WHEN k.key THEN 'step' ELSE 'added' END, NULL
         FROM (${JOB_CELLS}) j, json_each(@life) k
         WHERE k.key = 0 OR j.i < @finished ORDER BY j.i, k.key`,
      ).run(params);
      // A finished job's two results.
      db.prepare(
        `INSERT INTO outputs (job_id, type, path, bytes, done)
         SELECT j.id, o.type, j.folder || '/' || substr(j.name, 1, length(j.name) - 4) || '.' || j.lang || o.ext,
           o.bytes, 1
         FROM (${JOB_CELLS}) j,
           (SELECT 0 AS k, 'translated_mp4' AS type, '.mp4' AS ext, 9000000 AS bytes
            UNION ALL SELECT 1, 'translated_subtitle', '.vtt', 4000) o
         WHERE j.i < @finished ORDER BY j.i, o.k`,
      ).run(params);
      db.exec(`DROP TABLE temp.numbers`);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return { home, jobs, finished };
}

const built = new Map<string, Home>();

/**
 * The same home for every section of one run (`npm run bench` builds the 100,000-job home once). A section that changes a home must work on a copy (`copyHome`), never on this one.
 */
export function sharedHome(work: string, jobs: number, finished: number): Home {
  const key = `${work}:${jobs}:${finished}`;
  let home = built.get(key);
  if (!home) built.set(key, (home = buildHome(work, jobs, finished)));
  return home;
}

/** A copy of a home to change (its database folded into one file first, then copied: a second or so). */
export function copyHome(work: string, from: Home): Home {
  const home = mkdtempSync(join(work, `home-${from.jobs}-copy-`));
  databaseBytes(from.home);
  copyFileSync(join(from.home, 'dubdesk.db'), join(home, 'dubdesk.db'));
  return { ...from, home };
}

/** The database's bytes on disk (its WAL folded in first). */
export function databaseBytes(home: string): number {
  const file = join(home, 'dubdesk.db');
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(file).size;
}

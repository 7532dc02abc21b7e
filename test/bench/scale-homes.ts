/**
 * Data folders of any size for the `scale:` figures, built fast: rows go straight through the job store in
 * one transaction (as the engine writes them: the job, its history, its outputs), not through the service.
 * A finished job looks like one a real run leaves: completed, charged, two results on disk, six history
 * entries. Jobs are dated over the last two weeks, so none has aged into the history: every one is listed.
 */
import Database from 'better-sqlite3';
import { storeAt } from '../helpers/store';
import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type NewJob } from '../../electron/engine/db/jobs';

export const LANGS = ['es', 'fr', 'de', 'it', 'pt'];
const LIFE = ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed'] as const;

export interface Home {
  home: string;
  jobs: number;
  finished: number;
}

/** A home with `jobs` jobs (5 languages per source) of which `finished` are completed. */
export function buildHome(work: string, jobs: number, finished: number): Home {
  const home = mkdtempSync(join(work, `home-${jobs}-`));
  const store = storeAt(join(home, 'dubdesk.db'));
  const now = Date.now();
  const span = 14 * 86_400_000;
  try {
    store.db.pragma('cache_size = -262144'); // the whole build in memory until its commit
    store.db.transaction(() => {
      for (let i = 0; i < jobs; i++) {
        const s = Math.floor(i / LANGS.length);
        const lang = LANGS[i % LANGS.length] ?? 'es';
        const name = `${s % 7 === 0 ? 'interview with a long descriptive name, take ' : 'clip-'}${String(s).padStart(6, '0')}.mp4`;
        const folder = `/home/user/Videos/project-${Math.floor(s / 500)}`;
        const at = now - span + Math.floor((span * i) / Math.max(1, jobs));
        const job: NewJob = {
          source: `${folder}/${name}`,
          source_kind: 'file',
          source_name: name,
          source_type: 'video/mp4',
          source_bytes: 10_000_000 + s,
          source_mtime: at - 60_000,
          source_hash: (s * 2654435761).toString(16).padStart(64, '0'),
          duration: 30 + (s % 600),
          dest_lang: lang,
          source_lang: 'auto',
          api: 'v2',
          studio: 0,
          out_dir: folder,
          outputs_wanted: '"default"',
          naming: 'suffix',
          service: 'http://127.0.0.1:9',
          watch_folder_id: null,
          upload_once: 0,
        };
        const id = store.writes.insert(job, at);
        if (i >= finished) {
          store.history.append(id, at, null, 'queued', 'added', null, false);
          continue;
        }
        LIFE.forEach((to, k) =>
          store.history.append(
            id,
            at + k * 1000,
            k ? (LIFE[k - 1] ?? null) : null,
            to,
            k ? 'step' : 'added',
            null,
            false,
          ),
        );
        store.writes.write(
          id,
          'user',
          {
            state: 'completed',
            step: 'done',
            remote_id: `dub_${id.toString(36)}`,
            progress: 100,
            measured_duration: job.duration,
            credits_charged: Math.ceil(job.duration ?? 0),
            completed_at: at + 5000,
            made_from: 'upload',
            uploaded: 1,
          },
          at + 5000,
        );
        const base = `${folder}/${name.replace(/\.mp4$/, '')}.${lang}`;
        store.outputs.putMany([
          { job_id: id, type: 'translated_mp4', path: `${base}.mp4`, bytes: 9_000_000, done: 1 },
          { job_id: id, type: 'translated_subtitle', path: `${base}.vtt`, bytes: 4_000, done: 1 },
        ]);
      }
    })();
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.db.close();
  }
  return { home, jobs, finished };
}

const built = new Map<string, Home>();

/**
 * The same home for every section of one run (`npm run bench` builds the 100,000-job home once: ~20 s
 * on this VM). A section that changes a home must work on a copy (`copyHome`), never on this one.
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

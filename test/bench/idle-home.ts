/**
 * The idle bench's data folder, as after months of use: watched folders full of files Dubdesk has already
 * taken, each file dubbed into two languages (so 50,000 files make 100,000 jobs), most jobs finished and
 * their outcome recorded, a few open for a service nobody runs (so nothing is due).
 *
 * The folders are added through the contract and one template job through the engine's own enqueue; the
 * rest is copied from them in a few SQL statements (the triggers keep the aggregates and the search index,
 * as they do for jobs added one by one), so the home is ready in seconds rather than the ~10 s adding
 * 100,000 jobs one at a time took.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../../electron/engine/db/open';
import { openDubdesk } from '../../electron/engine/index';
import { seedQueue } from '../helpers/seed';
import { WatchStore } from '../../electron/engine/db/watch';

const TWO_WEEKS_MS = 14 * 86_400_000;
const LANGS = ['es', 'fr'] as const;
/** One file in this many keeps its jobs open: 5,000 of 100,000. */
const OPEN_EVERY = 20;

export interface IdleHome {
  home: string;
  roots: string[];
  jobs: number;
  files: number;
  /** Removes the watched trees (the home stays with the bench's work folder). */
  removeFiles(): void;
}

/**
 * Where the 50,000 watched files go: memory-backed /dev/shm where there is one. Under the load of a shared
 * machine, creating and then deleting them on disk took minutes (a recursive rmSync of the tree took
 * 121 s at load 15), out of the whole bench's 5-minute budget. A stat of a cached inode costs the same on
 * either, and `find`, the catch-up's reference, walks the same trees. The database stays on disk.
 */
function filesFolder(work: string): string {
  return existsSync('/dev/shm') ? mkdtempSync('/dev/shm/dubdesk-idle-') : work;
}

export async function buildIdleHome(
  work: string,
  opts: { folders: number; filesPerFolder: number },
): Promise<IdleHome> {
  const home = join(work, 'idle-home');
  mkdirSync(home, { recursive: true });
  seedQueue(home, 1, ['es']);
  const trees = filesFolder(work);
  const roots = Array.from({ length: opts.folders }, (_, f) => join(trees, `watched-${f}`));
  const host = openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
  const ids: number[] = [];
  for (const [f, root] of roots.entries()) {
    mkdirSync(root, { recursive: true });
    const added = await host.api.addWatchFolder({
      path: root,
      preset: { to: [...LANGS], outDir: join(work, `watched-out-${f}`), recursive: true },
    });
    ids.push(added.id);
  }
  await host.close();
  const now = Date.now();
  const planned = planFiles(roots, opts.filesPerFolder, now);
  const writing = writeFiles(planned);
  const db = openDatabase(join(home, 'dubdesk.db'));
  // The bulk load's pages stay in memory until the commit: with SQLite's default 2 MB cache, the 20 indexes
  // of 100,000 jobs spilled and read back pages all along. Nothing here needs to survive a crash.
  db.pragma('cache_size = -1048576');
  db.pragma('synchronous = OFF');
  try {
    db.transaction(() => {
      const file = db.prepare(
        `INSERT INTO watch_files (folder_id, path, version, status, size, mtime_ms, hash, changed_at,
           wait_since, first_seen_at, taken_at, updated_at, preset_version)
         VALUES (?, ?, 1, 'taken', ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      );
      for (const [n, p] of planned.entries()) {
        const hash = String(n).padEnd(64, '0');
        // Taken over the last two weeks, as months of use leave them (not all in the last hour).
        const at = now - ((n * 7919) % TWO_WEEKS_MS);
        file.run(ids[p.folder], p.path, p.size, p.mtimeMs, hash, at, at, at, at, at);
      }
      // Each file's jobs: the template job with the file's source, language, folder and state.
      const template = db.prepare(`SELECT id FROM jobs ORDER BY id LIMIT 1`).pluck().get() as number;
      const columns = (
        db.prepare(`SELECT name FROM pragma_table_info('jobs')`).pluck().all() as string[]
      ).filter((c) => c !== 'id');
      const open = `f.id % ${OPEN_EVERY} = 0`;
      const override: Record<string, string> = {
        source: 'f.path',
        source_name: `'clip-' || f.id || '.mp4'`,
        source_bytes: 'f.size',
        source_mtime: 'f.mtime_ms',
        source_hash: 'f.hash',
        dest_lang: 'l.value',
        watch_folder_id: 'f.folder_id',
        state: `CASE WHEN ${open} THEN 'queued' ELSE 'completed' END`,
        step: `CASE WHEN ${open} THEN 'submit' ELSE 'done' END`,
        completed_at: `CASE WHEN ${open} THEN NULL ELSE f.taken_at END`,
        credits_charged: `CASE WHEN ${open} THEN NULL ELSE 30 END`,
        // Given here, not by the trigger that dates a charge (one UPDATE per finished job).
        charged_at: `CASE WHEN ${open} THEN NULL ELSE f.taken_at END`,
        created_at: 'f.taken_at',
        updated_at: 'f.taken_at',
      };
      db.prepare(
        `INSERT INTO jobs (${columns.join(', ')})
         SELECT ${columns.map((c) => override[c] ?? `t.${c}`).join(', ')}
         FROM watch_files f, json_each(@langs) l, jobs t WHERE t.id = @template ORDER BY f.id, l.key`,
      ).run({ template, langs: JSON.stringify(LANGS) });
      db.prepare(`DELETE FROM jobs WHERE id = ?`).run(template);
      db.exec(`
        INSERT INTO job_history (job_id, at, from_state, to_state, event, reason)
          SELECT id, created_at, NULL, 'queued', 'added', NULL FROM jobs;
        INSERT INTO watch_file_jobs (file_id, job_id, own)
          SELECT f.id, j.id, 1 FROM jobs j
          JOIN watch_files f ON f.folder_id = j.watch_folder_id AND f.path = j.source AND f.current = 1;
        UPDATE watch_files SET outcome = 'done', credits = 60 WHERE id % ${OPEN_EVERY} != 0;
      `);
      // As the session that dubbed them left it: every outcome recorded, with the folder's jobs as then.
      const watch = new WatchStore(db);
      for (const id of ids) watch.folders.outcomesRecorded(id, watch.links.jobSignature(id));
    })();
  } finally {
    db.close();
  }
  await writing;
  await watchOnce(home, ids);
  const files = opts.folders * opts.filesPerFolder;
  const removeFiles = () => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
    if (trees !== work) rmSync(trees, { recursive: true, force: true });
  };
  return { home, roots, jobs: files * LANGS.length, files, removeFiles };
}

interface Planned {
  folder: number;
  path: string;
  body: string;
  size: number;
  mtimeMs: number;
}

/**
 * The watched files, 500 to a subfolder: their paths, sizes and modification times, decided here so the
 * database rows can be written while the files are. Times are a second apart and then some, over the last
 * weeks: about one file in a thousand has a whole second, as a tool (tar, unzip) sets them.
 */
function planFiles(roots: readonly string[], perFolder: number, now: number): Planned[] {
  const planned: Planned[] = [];
  for (const [f, root] of roots.entries())
    for (let d = 0; d < perFolder / 500; d++)
      for (let i = 0; i < 500; i++) {
        const n = planned.length;
        const body = `not really a video ${f}/${d}/${i}\n`;
        planned.push({
          folder: f,
          path: join(root, `shoot-${d}`, `clip-${i}.mp4`),
          body,
          size: Buffer.byteLength(body),
          mtimeMs: now - 86_400_000 - n * 1013,
        });
      }
  return planned;
}

/**
 * Writes the planned files in a worker thread (each written, then given its time), beside the main
 * thread's database work: one after the other, the two were most of the home's build.
 */
function writeFiles(planned: readonly Planned[]): Promise<void> {
  const worker = new Worker(
    `const { mkdirSync, writeFileSync, utimesSync } = require('node:fs');
     const { dirname } = require('node:path');
     const { files } = require('node:worker_threads').workerData;
     let dir = '';
     for (const f of files) {
       if (dirname(f.path) !== dir) mkdirSync((dir = dirname(f.path)), { recursive: true });
       writeFileSync(f.path, f.body);
       utimesSync(f.path, f.mtimeMs / 1000, f.mtimeMs / 1000);
     }`,
    {
      eval: true,
      workerData: { files: planned.map(({ path, body, mtimeMs }) => ({ path, body, mtimeMs })) },
    },
  );
  return new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the file writer exited with ${code}`)),
    );
  });
}

/**
 * A session that watched the folders, as the one before a restart did: each folder's catch-up (a walk of
 * every file, the first time) leaves the snapshot a restart asks what changed since. The queue is paused
 * meanwhile, so nothing else runs, and resumed after.
 */
async function watchOnce(home: string, ids: readonly number[]): Promise<void> {
  const host = openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
  await host.api.pauseQueue();
  const started = Date.now();
  const stop = new AbortController();
  const run = host.run({ untilDone: false, concurrency: 2, pollIntervalMs: 1000, signal: stop.signal });
  for (;;) {
    const { folders } = await host.api.listWatchFolders();
    const caughtUp = folders.filter(
      (f) =>
        ids.includes(f.id) && f.status === 'watching' && f.lastScanAt && Date.parse(f.lastScanAt) >= started,
    );
    if (caughtUp.length === ids.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  stop.abort();
  await run;
  await host.api.resumeQueue();
  await host.close();
}

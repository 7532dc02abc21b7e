/**
 * The idle bench's data folder: a long history (most jobs finished, some open for a service nobody runs,
 * so nothing is due) and watched folders full of files Dubdesk has already taken, as after months of use.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../electron/engine/db/open';
import { openDubdesk } from '../../electron/engine/index';
import { seedQueue } from '../helpers/seed';

const LANGS = ['es', 'fr', 'de', 'it', 'pt'];

export interface IdleHome {
  home: string;
  roots: string[];
  jobs: number;
  files: number;
}

export async function buildIdleHome(
  work: string,
  opts: { jobs: number; folders: number; filesPerFolder: number },
): Promise<IdleHome> {
  const home = join(work, 'idle-home');
  mkdirSync(home, { recursive: true });
  const jobs = seedQueue(home, Math.ceil(opts.jobs / LANGS.length), LANGS);
  const roots = Array.from({ length: opts.folders }, (_, f) => join(work, `watched-${f}`));
  // The folders through the contract, as a user adds them (their preset as the app fills it in).
  const host = openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'x' } });
  const ids: number[] = [];
  for (const [f, root] of roots.entries()) {
    mkdirSync(root, { recursive: true });
    const added = await host.api.addWatchFolder({
      path: root,
      preset: { to: ['es', 'fr'], outDir: join(work, `watched-out-${f}`), recursive: true },
    });
    ids.push(added.id);
  }
  await host.close();
  const db = openDatabase(join(home, 'dubdesk.db'));
  const now = Date.now();
  try {
    db.transaction(() => {
      // 95 in 100 finished; the rest stay queued for a service that is not the one configured.
      db.prepare(
        `UPDATE jobs SET state = 'completed', step = 'done', completed_at = ? WHERE id % 20 != 0`,
      ).run(now);
      const file = db.prepare(
        `INSERT INTO watch_files (folder_id, path, version, status, size, mtime_ms, hash, changed_at,
           wait_since, first_seen_at, taken_at, updated_at)
         VALUES (?, ?, 1, 'taken', ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const [f, root] of roots.entries()) {
        const id = ids[f];
        for (let d = 0; d < opts.filesPerFolder / 500; d++) {
          const dir = join(root, `shoot-${d}`);
          mkdirSync(dir, { recursive: true });
          for (let i = 0; i < 500; i++) {
            const path = join(dir, `clip-${i}.mp4`);
            writeFileSync(path, `not really a video ${f}/${d}/${i}\n`);
            const s = statSync(path);
            file.run(
              id,
              path,
              s.size,
              Math.round(s.mtimeMs),
              `${f}-${d}-${i}`.padEnd(64, '0'),
              now,
              now,
              now,
              now,
              now,
            );
          }
        }
      }
    })();
  } finally {
    db.close();
  }
  return { home, roots, jobs, files: opts.folders * opts.filesPerFolder };
}

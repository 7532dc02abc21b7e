/**
 * The `scale:` bench writes its 100,000-job homes with a few SQL statements (`test/bench/scale-homes.ts`),
 * not through the job store (a minute under load). Its figures mean something only if those homes are what
 * the engine's own writes leave: this builds a small home both ways, the same jobs on the same dates, and
 * compares every table, the aggregates, the sources' list and the search index included. A migration that
 * adds a column, a trigger or a table the SQL does not fill makes it fail.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { NewJob } from '../../electron/engine/db/jobs';
import { openDatabase } from '../../electron/engine/db/open';
import { buildHome, LANGS, LIFE, SPAN_MS } from '../bench/scale-homes';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

/** Set by a trigger from the clock at the moment of the write, so it differs between any two builds. */
const CLOCK_COLUMNS = new Set(['charged_at']);
/**
 * The search index's segments: how FTS5 lays out the same terms depends on how many transactions and
 * savepoints wrote them (the engine's own adds write in slices), so their bytes are compared by what the
 * index answers instead (`answers`).
 */
const SEGMENT_TABLES = new Set(['source_search_data', 'source_search_idx']);
/** Searches as the list runs them (trigram: three characters or more), each one's sources in order. */
const SEARCHES = ['interview', 'clip-0000', 'take 00001', 'project-0', '.mp4', 'nothing like it'];

/** Job `i` of a home of `jobs`, through the job store as a real run writes it (the bench's former build). */
function writeThroughStore(file: string, jobs: number, finished: number, now: number): void {
  const store = storeAt(file);
  try {
    store.db.transaction(() => {
      for (let i = 0; i < jobs; i++) {
        const s = Math.floor(i / LANGS.length);
        const lang = LANGS[i % LANGS.length] ?? 'es';
        const name = `${s % 7 === 0 ? 'interview with a long descriptive name, take ' : 'clip-'}${String(s).padStart(6, '0')}.mp4`;
        const folder = `/home/user/Videos/project-${Math.floor(s / 500)}`;
        const at = now - SPAN_MS + Math.floor((SPAN_MS * i) / Math.max(1, jobs));
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
  } finally {
    store.db.close();
  }
}

/** Every row of every table, in rowid order where there is one, clock-set columns left out. */
function contents(file: string): Record<string, unknown[]> {
  const db = openDatabase(file);
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all() as string[];
    // As the list asks the index (electron/engine/db/job-store/filter.ts): LIKE over the trigram index.
    const search = db.prepare(`SELECT rowid FROM source_search WHERE source LIKE ? ORDER BY rowid`).pluck();
    const answers = SEARCHES.map((q) => [q, search.all(`%${q}%`)]);
    db.prepare(`INSERT INTO source_search (source_search) VALUES ('integrity-check')`).run();
    return Object.fromEntries([
      ['search answers', answers],
      ...tables
        .filter((t) => !SEGMENT_TABLES.has(t))
        .map((t) => {
          const rows = db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[];
          return [
            t,
            rows.map((r) => Object.fromEntries(Object.entries(r).filter(([c]) => !CLOCK_COLUMNS.has(c)))),
          ];
        }),
    ]);
  } finally {
    db.close();
  }
}

describe("the scale bench's homes", () => {
  it('hold what the job store writes for the same jobs, table by table', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    // 7 * 5 * 3 jobs: sources with the long name and the short, finished and open, every language.
    const [jobs, finished] = [105, 80];
    const work = tempDir();
    const viaStore = join(work, 'store.db');
    writeThroughStore(viaStore, jobs, finished, now);
    const built = buildHome(work, jobs, finished, now);
    const viaSql = join(built.home, 'dubdesk.db');
    const [expected, actual] = [contents(viaStore), contents(viaSql)];
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    expect((expected.jobs ?? []).length).toBe(jobs);
    expect(
      (expected['search answers'] as [string, number[]][]).flatMap(([, found]) => found).length,
    ).toBeGreaterThan(0);
    const differ = Object.keys(expected).filter((t) => !isDeepStrictEqual(actual[t], expected[t]));
    expect(differ).toEqual([]);
    // The home is the database alone, as the store's build left it (no journal or change file beside it).
    expect(readdirSync(built.home).sort()).toEqual(['dubdesk.db']);
  });
});

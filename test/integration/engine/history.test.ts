import Database from 'better-sqlite3';
import { storeAt } from '../../helpers/store';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../electron/engine/db/open';
import { openDubdesk } from '../../../electron/engine/index';
import { tempDir } from '../../helpers/temp-dir';
import { seedQueue } from '../../helpers/seed';

const DAY = 86_400_000;

/** 20 sources x 2 languages: the first 8 sources finished 40 days ago, the next 4 yesterday, the rest queued. */
function agedHome(): string {
  const home = tempDir();
  seedQueue(home, 20, ['es', 'fr']);
  const store = storeAt(join(home, 'dubdesk.db'));
  const ids = store.db.prepare(`SELECT id FROM jobs ORDER BY id`).pluck().all() as number[];
  ids.forEach((id, i) => {
    const source = Math.floor(i / 2);
    const at = source < 8 ? Date.now() - 40 * DAY : source < 12 ? Date.now() - DAY : null;
    if (at !== null)
      store.writes.write(
        id,
        'user',
        { state: 'completed', step: 'done', completed_at: at, credits_charged: 30 },
        at,
      );
  });
  store.db.close();
  return home;
}

const open = (home: string) =>
  openDubdesk({ home, face: 'cli', service: { baseUrl: 'http://127.0.0.1:9', apiKey: 'k' } });

describe('a history that grows for years', () => {
  it('finished jobs older than the setting (30 days) leave the live list, stay searchable in the history, and the totals follow', async () => {
    const home = agedHome();
    const host = open(home);
    try {
      await vi.waitFor(async () => expect((await host.api.listJobs({})).total).toBe(24));
      const live = await host.api.listSources({});
      expect(live.total).toBe(12);
      expect((await host.api.totals()).counts.completed).toBe(8);
      // The History view's count comes with the totals (kept by triggers, not counted by reading it).
      expect((await host.api.totals()).history).toBe(16);
      await host.api.clearJobs({ filter: { states: ['completed'] } });
      expect((await host.api.totals()).history).toBe(24);
      expect((await host.api.totals()).counts.completed ?? 0).toBe(0);
      const past = await host.api.listJobs({ filter: { history: true }, limit: 500 });
      expect(past.total).toBe(24);
      expect(past.jobs.every((j) => j.state === 'completed')).toBe(true);
      // Searchable: by name in the history, and not in the live list.
      const name = past.jobs[0]?.sourceName ?? '';
      expect(
        (await host.api.listJobs({ filter: { history: true, search: name.slice(2, 12) } })).total,
      ).toBeGreaterThan(0);
      expect((await host.api.listJobs({ filter: { search: name } })).total).toBe(0);
      // The history is no list to act on, but its jobs are still open to read.
      expect((await host.api.getJob({ id: past.jobs[0]?.id ?? 0 })).state).toBe('completed');
    } finally {
      await host.close();
    }
  });

  it('the setting is a validated field of the settings: a shorter history moves more jobs out of the live list', async () => {
    const home = agedHome();
    const host = open(home);
    try {
      expect((await host.api.getSettings()).historyAfterDays).toBe(30);
      await expect(host.api.setSettings({ historyAfterDays: 0 })).rejects.toThrow(/historyAfterDays/);
      await vi.waitFor(async () => expect((await host.api.listJobs({})).total).toBe(24));
      await host.api.setSettings({ historyAfterDays: 1 });
      await vi.waitFor(async () => expect((await host.api.listJobs({})).total).toBe(16));
      expect((await host.api.totals()).counts.completed ?? 0).toBe(0);
      expect((await host.api.totals()).history).toBe(24);
    } finally {
      await host.close();
    }
  });

  it('a database made before incremental vacuum is converted once, with a backup taken first', () => {
    const home = tempDir();
    const file = join(home, 'dubdesk.db');
    const raw = new Database(file);
    raw.exec(`CREATE TABLE leftover (x)`);
    expect(raw.pragma('auto_vacuum', { simple: true })).toBe(0);
    raw.close();
    const db = openDatabase(file);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    db.close();
    expect(readdirSync(join(home, 'backups')).filter((n) => n.endsWith('.db'))).toHaveLength(1);
    const fresh = openDatabase(join(tempDir(), 'new.db'));
    expect(fresh.pragma('auto_vacuum', { simple: true })).toBe(2);
    fresh.close();
  });
});

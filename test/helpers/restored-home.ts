/**
 * A data folder whose database was damaged after its dubs were made, and restored from a backup older than
 * them (`dubdesk restore-db`): as when a disk fails between two starts of Dubdesk.
 */
import Database from 'better-sqlite3';
import {
  closeSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { AddRequest } from '../../shared/contract/batches';
import type { ApiGeneration } from '../../shared/contract/jobs';
import { restoreDatabase } from '../../electron/engine/index';
import type { Sandbox } from '../../electron/sandbox/server';
import { engineFor, quickRun } from './engine';
import { tempDir } from './temp-dir';

export type Damage = (db: string) => void;
export const junk: Damage = (db) => writeFileSync(db, Buffer.alloc(8192, 0x5a));
export const truncated: Damage = (db) => truncateSync(db, Math.floor(statSync(db).size / 2));
/** Junk over the job history's first page: the file fails its check, its jobs can still be read. */
export const historyPage: Damage = (db) => {
  const open = new Database(db, { readonly: true });
  const page = open.pragma('page_size', { simple: true }) as number;
  const root = open
    .prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'job_history'`)
    .pluck()
    .get() as number;
  open.close();
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(page, 0x5a), 0, page, (root - 1) * page);
  closeSync(fd);
};

/** What the backup left holds: an empty queue, or the batch queued and not yet sent. */
export type Backup = 'empty' | 'queued';

/** How the dubs of a damaged home were made. */
export interface Dubbed {
  /** The API generation they were made with (v2 unless told). */
  api?: ApiGeneration;
  /** Where their results went (beside the sources unless told). */
  outDir?: string;
  /** More of the batch's request (what is sent, the subtitles…). */
  more?: Partial<AddRequest>;
  backup?: Backup;
}

/**
 * A home whose only backup predates the dubs of `files`, then damaged by `damage` and restored from that
 * backup: as when a disk fails between two starts of Dubdesk.
 */
export async function dubbedThenRestored(sb: Sandbox, files: string[], damage: Damage, how: Dubbed = {}) {
  const home = await dubbedThenDamaged(sb, files, damage, how);
  return { home, restored: await restoreDatabase(home) };
}

/** The same home, damaged and not yet restored. */
export async function dubbedThenDamaged(
  sb: Sandbox,
  files: string[],
  damage: Damage,
  { api = 'v2', outDir, more = {}, backup = 'empty' }: Dubbed = {},
): Promise<string> {
  const home = tempDir();
  const add = (h: ReturnType<typeof engineFor>) =>
    h.api.add({ inputs: files, to: ['es'], api, ...(outDir ? { outDir } : {}), ...more });
  const first = engineFor(sb, home);
  if (backup === 'queued') await add(first);
  await first.close(); // its close backs up the queue: empty, or the batch queued and not yet sent
  const before = new Set(readdirSync(join(home, 'backups')));
  const host = engineFor(sb, home);
  if (backup === 'empty') await add(host);
  expect(await host.run(quickRun(2))).toBe('done');
  await host.close();
  // The backup taken at that close is lost with the disk; the older one is what is left.
  for (const b of readdirSync(join(home, 'backups'))) if (!before.has(b)) rmSync(join(home, 'backups', b));
  const db = join(home, 'dubdesk.db');
  for (const ext of ['-wal', '-shm']) rmSync(`${db}${ext}`, { force: true });
  damage(db);
  return home;
}

/** The dubs the service made and started of these names, and what it charged for them. */
export function madeOf(sb: Sandbox, names: readonly string[]) {
  const dubs = [...sb.state.dubs.values()].filter((d) => names.includes(d.name) && d.queuedAt !== null);
  const ids = new Set(dubs.map((d) => d.id));
  return { dubs, charges: sb.state.ledger.filter((c) => ids.has(c.dubId)) };
}

import { z } from 'zod';
import type { DeliverChoice } from '../../../../shared/contract/deliver';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { PackageRow } from './deliver-values';
import { JobRow } from './rows';

const DiskFullRow = z.object({ error: z.string() }).optional();

/**
 * Each source's package (one per output folder): wanted once a language of a batch that asked for one has
 * its QC (or at once: Package now), then made, done or failed. Every write says so on the change feed
 * (`packages`: the faces list again; a wanted one is due: the worker looks).
 */
export class Packages {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      siblings: db.prepare(
        `SELECT * FROM jobs WHERE source = ? AND out_dir = ? AND cleared_at IS NULL ORDER BY id`,
      ),
      sourceJobs: db.prepare(`SELECT * FROM jobs WHERE source = ? AND cleared_at IS NULL ORDER BY id`),
      of: db.prepare(`SELECT * FROM packages WHERE source = ? AND out_dir = ?`),
      ofSource: db.prepare(`SELECT * FROM packages WHERE source = ? ORDER BY updated_at DESC`),
      due: db.prepare(`SELECT * FROM packages WHERE state IN ('waiting', 'making') ORDER BY id`),
      want: db.prepare(
        `INSERT INTO packages (source, out_dir, format, default_audio, naming, state, now, updated_at)
          VALUES (@source, @out_dir, @format, @default_audio, @naming, 'waiting', @now, @at)
          ON CONFLICT (source, out_dir) DO UPDATE SET format = excluded.format,
            default_audio = excluded.default_audio, naming = excluded.naming, state = 'waiting',
            now = max(packages.now, excluded.now), error = NULL, updated_at = excluded.updated_at`,
      ),
      setState: db.prepare(`UPDATE packages SET state = ?, updated_at = ? WHERE id = ?`),
      // Tried (again): what it waited for is said again if it is still so.
      making: db.prepare(`UPDATE packages SET state = 'making', error = NULL, updated_at = ? WHERE id = ?`),
      // A language finished while it was being made: it stays waiting (to be made again with that one).
      done: db.prepare(
        `UPDATE packages SET state = CASE state WHEN 'waiting' THEN 'waiting' ELSE 'done' END, now = 0,
          job_ids = ?, languages = ?, path = ?, error = NULL, updated_at = ? WHERE id = ?`,
      ),
      // Its disk is full: due again once there is room (the worker looks), saying what to free meanwhile.
      waitForRoom: db.prepare(
        `UPDATE packages SET state = 'waiting', error = ?, updated_at = ? WHERE id = ?`,
      ),
      // Still waiting (a language finished meanwhile): made again, so this failure is not said as its wait.
      failed: db.prepare(
        `UPDATE packages SET state = CASE state WHEN 'waiting' THEN 'waiting' ELSE 'failed' END, now = 0,
          error = CASE state WHEN 'waiting' THEN NULL ELSE ? END, updated_at = ? WHERE id = ?`,
      ),
      // A new run tries failed packages again (a source back in place, ffmpeg installed, a folder fixed).
      retryFailed: db.prepare(
        `UPDATE packages SET state = 'waiting', error = NULL, updated_at = ? WHERE state = 'failed'
          AND EXISTS (SELECT 1 FROM jobs WHERE jobs.source = packages.source AND jobs.out_dir = packages.out_dir
            AND jobs.state = 'completed' AND jobs.cleared_at IS NULL)`,
      ),
      // Waiting with words: only a full disk leaves them (see failed and making).
      diskFull: db.prepare(
        `SELECT error FROM packages WHERE state = 'waiting' AND error IS NOT NULL ORDER BY updated_at LIMIT 1`,
      ),
    };
  }

  /** Marks a source's package due (made once its languages are done; at once with `now`). */
  want(
    source: string,
    outDir: string,
    choice: Pick<DeliverChoice, 'package' | 'defaultAudio'>,
    naming: 'suffix' | 'folders',
    now: boolean,
    at = Date.now(),
  ): void {
    if (choice.package === 'none') return;
    const row = {
      source,
      out_dir: outDir,
      format: choice.package,
      default_audio: choice.defaultAudio,
      naming,
      now: now ? 1 : 0,
      at,
    };
    this.t.write(() => {
      this.q.want.run(row);
      this.t.changes.packagesChanged();
      this.t.changes.dueSooner();
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

  of(source: string, outDir: string): PackageRow | null {
    const r = this.q.of.get(source, outDir);
    return r ? PackageRow.parse(r) : null;
  }

  /** A source's packages, the latest first (one per output folder). */
  ofSource(source: string): PackageRow[] {
    return this.q.ofSource.all(source).map((r) => PackageRow.parse(r));
  }

  /** Packages waiting for their languages or to be made again, and those a stopped run was making. */
  due(): PackageRow[] {
    return this.q.due.all().map((r) => PackageRow.parse(r));
  }

  making(id: number, at = Date.now()): void {
    this.write(() => this.q.making.run(at, id));
  }

  /** Back to waiting (its languages are not all done yet). */
  waiting(id: number, at = Date.now()): void {
    this.write(() => this.q.setState.run('waiting', at, id));
  }

  done(
    id: number,
    jobIds: readonly number[],
    languages: readonly string[],
    path: string,
    at = Date.now(),
  ): void {
    this.write(() => this.q.done.run(JSON.stringify(jobIds), JSON.stringify(languages), path, at, id));
  }

  /** Made again once its disk has room; `message` says what to free ("disk full: free N MiB in DIR"). */
  waitForRoom(id: number, message: string, at = Date.now()): void {
    this.write(() => this.q.waitForRoom.run(message, at, id));
  }

  failed(id: number, message: string, at = Date.now()): void {
    this.write(() => this.q.failed.run(message, at, id));
  }

  /** Every failed package of a source with a finished dub is due again (once per run); how many. */
  retryFailed(at = Date.now()): number {
    return this.t.write(() => {
      const { changes } = this.q.retryFailed.run(at);
      if (changes > 0) this.t.changes.packagesChanged();
      return changes;
    });
  }

  /** What to free where, while a package waits for room ("disk full: free N MiB in DIR"); null otherwise. */
  diskFull(): string | null {
    return DiskFullRow.parse(this.q.diskFull.get())?.error ?? null;
  }

  private write(fn: () => unknown): void {
    this.t.write(() => {
      fn();
      this.t.changes.packagesChanged();
    });
  }
}

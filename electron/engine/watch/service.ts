import { randomUUID } from 'node:crypto';
import type { WatchFolderRow } from '../db/watch';
import { settleOutcomes } from './after';
import { discover } from './discover';
import type { WatchEnv } from './env';
import { FolderWatcher } from './folder-watcher';
import { fullScan } from './scan';
import { check, hashAndMark } from './settle';
import { takeReady } from './take';

export const HEARTBEAT_MS = 3000;
/** A watching process silent this long is gone: its folders show `inactive`. */
export const HEARTBEAT_STALE_MS = 15_000;
const DUE_BATCH = 500;
const READY_BATCH = 2000;

/**
 * Watches every folder of the table while the queue is worked in this process: one loop, each tick doing
 * what is due — read the folder table (other processes add, edit and remove folders), check each folder is
 * there, look at the paths events named, scan folders due a full scan, check settling files, hash stable
 * ones, take ready ones, and act on files whose jobs finished. Slow work (hashing, scans, probing) runs
 * beside the loop, one of each kind per folder, so one large file never holds up the other folders.
 */
export class WatchService {
  private readonly owner = randomUUID();
  private readonly folders = new Map<number, FolderWatcher>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly hashing = new Set<number>();
  private readonly hashQueue: { folder: FolderWatcher; fileId: number }[] = [];
  private inflightHashes = 0;
  private readonly controller = new AbortController();
  private revisions = '';
  private folderSyncAt = 0;
  private heartbeatAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeUp: () => void = () => {};
  private stopped = false;

  constructor(private readonly env: WatchEnv) {}

  start(): void {
    if (this.running) return;
    this.running = this.loop();
  }

  /** Looks now rather than at the next tick (an event, a change asked by a face of this process). */
  wake(): void {
    this.folderSyncAt = 0;
    this.wakeUp();
  }

  /** Stops the loop, every watcher and every hash in progress; what was found stays in the database. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.controller.abort();
    this.wakeUp();
    await this.running;
    await Promise.allSettled([...this.inflight]);
    await Promise.allSettled([...this.folders.values()].map((f) => f.close()));
    this.folders.clear();
    this.env.watch.dropHeartbeat(this.owner);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.tick();
      } catch (e) {
        this.env.warn({ error: (e as Error).message }, 'watcher tick failed');
      }
      await new Promise<void>((resolve) => {
        this.timer = setTimeout(resolve, this.env.timing.tickMs);
        this.wakeUp = () => {
          if (this.timer) clearTimeout(this.timer);
          resolve();
        };
      });
    }
  }

  /** Runs `work` beside the loop, at most one per folder and kind. */
  private beside(
    folder: FolderWatcher,
    kind: keyof FolderWatcher['busy'],
    work: () => Promise<unknown>,
  ): void {
    if (folder.busy[kind] || this.stopped) return;
    folder.busy[kind] = true;
    const p = work()
      .catch((e: unknown) =>
        this.env.warn({ folder: folder.row.path, error: (e as Error).message }, `watcher ${kind} failed`),
      )
      .finally(() => {
        folder.busy[kind] = false;
        this.inflight.delete(p);
        this.wakeUp();
      });
    this.inflight.add(p);
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    if (now - this.heartbeatAt >= HEARTBEAT_MS) {
      this.heartbeatAt = now;
      this.env.watch.heartbeat(this.owner, now);
    }
    if (now >= this.folderSyncAt) {
      this.folderSyncAt = now + this.env.timing.folderSyncMs;
      await this.syncFolders();
    }
    for (const f of this.folders.values()) {
      if (this.stopped) return;
      if (Date.now() >= f.nextAvailabilityAt) this.beside(f, 'availability', () => f.checkAvailability());
      if (!f.available) continue;
      const paths = [...f.pending];
      f.pending.clear();
      for (const p of paths) await discover(this.env, f.row, f.matcher, p);
      if (Date.now() >= f.nextScanAt) {
        this.beside(f, 'scan', async () => {
          const ok = await fullScan(this.env, f.row, f.matcher, () => this.stopped);
          if (!ok) f.nextAvailabilityAt = 0;
          else {
            this.env.watch.scanned(f.row.id, Date.now());
            f.scanned();
            f.jobSignature = ''; // outcomes are looked at again after every scan (a move that failed)
          }
        });
      }
      await this.checkDue(f);
      if (!f.busy.take && this.env.watch.hasStatus(f.row.id, 'ready'))
        this.beside(f, 'take', () =>
          takeReady(this.env, f.row, this.env.watch.withStatus(f.row.id, 'ready', READY_BATCH)),
        );
      const signature = this.env.watch.jobSignature(f.row.id);
      if (signature !== f.jobSignature) {
        this.beside(f, 'outcomes', async () => {
          await settleOutcomes(this.env, f.row);
          f.jobSignature = signature;
        });
        this.env.folderChanged(f.row.id);
      }
    }
    this.runHashes();
  }

  /** Settling and waiting files whose time has come; stable ones join the hash queue. */
  private async checkDue(f: FolderWatcher): Promise<void> {
    for (const row of this.env.watch.due(f.row.id, Date.now(), DUE_BATCH)) {
      if (this.stopped) return;
      if (this.hashing.has(row.id)) continue;
      if (await check(this.env, f.row, row)) {
        this.hashing.add(row.id);
        this.hashQueue.push({ folder: f, fileId: row.id });
      }
    }
  }

  private runHashes(): void {
    const limit = this.env.timing.hashConcurrency;
    while (this.hashQueue.length && this.inflightHashes < limit && !this.stopped) {
      const next = this.hashQueue.shift();
      if (!next) break;
      const row = this.env.watch.file(next.fileId);
      if (!row || !next.folder.available) {
        this.hashing.delete(next.fileId);
        continue;
      }
      this.inflightHashes++;
      const p = hashAndMark(this.env, next.folder.row, row, this.controller.signal)
        .catch((e: unknown) => {
          if (!this.stopped) this.env.warn({ path: row.path, error: (e as Error).message }, 'hashing failed');
        })
        .finally(() => {
          this.inflightHashes--;
          this.hashing.delete(next.fileId);
          this.inflight.delete(p);
          this.runHashes();
          if (this.hashQueue.length === 0) this.wakeUp();
        });
      this.inflight.add(p);
    }
  }

  /** The folder table as it is now: new folders are watched, removed and paused ones are not. */
  private async syncFolders(): Promise<void> {
    const rows = this.env.watch.folders();
    const revisions = rows.map((r) => `${r.id}:${r.revision}`).join(',');
    if (revisions === this.revisions) return;
    this.revisions = revisions;
    const active = new Map<number, WatchFolderRow>(rows.filter((r) => !r.paused).map((r) => [r.id, r]));
    for (const [id, f] of this.folders) {
      if (!active.has(id)) {
        this.folders.delete(id);
        await f.close();
        this.env.folderChanged(id);
      }
    }
    for (const row of active.values()) {
      const f = this.folders.get(row.id);
      if (!f) {
        this.folders.set(row.id, new FolderWatcher(this.env, row, () => this.wakeUp()));
        continue;
      }
      const rescan = row.rescan_asked !== f.row.rescan_asked;
      await f.configure(row);
      if (rescan) f.nextScanAt = 0;
    }
  }
}

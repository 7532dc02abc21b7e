import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { WatchFolderRow } from '../db/watch';
import type { WatchBeat } from '../db/watch-store/heartbeat';
import type { Changes } from '../db/changes';
import { backoffDelay } from '../runner/backoff';
import { WallClockSteps } from '../runner/clock-steps';
import { IDLE_HEARTBEAT_MS, IDLE_STALE_MS, loopTurns, machineClockMs, pidAlive } from '../runner/idle';
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

/**
 * Whether a watching process is alive by its last heartbeat. On this machine its pid says whether it runs
 * (renewed seldom while idle, the beat only guards against a pid reused after a reboot), and the beat's age
 * is read on the machine's monotonic clock: a step of the wall clock an hour forward made a watcher that
 * runs look gone, one an hour back a killed one look alive for the hour. Another machine's beat is recent
 * by the wall clocks, a little ahead or behind.
 */
export function watcherAlive(beat: WatchBeat | null, now: number): boolean {
  if (!beat) return false;
  if (beat.host === hostname() && beat.pid !== undefined) {
    if (!pidAlive(beat.pid)) return false;
    // A beat from the future by the monotonic clock is another boot's (its pid since reused).
    const age = beat.mono === undefined ? Math.max(0, now - beat.at) : machineClockMs() - beat.mono;
    return age >= 0 && age < IDLE_STALE_MS;
  }
  return Math.abs(now - beat.at) < HEARTBEAT_STALE_MS;
}
const DUE_BATCH = 500;
/** The longest wait before work that failed in a folder is tried again. */
const RETRY_CAP_MS = 60_000;

type WorkKind = keyof FolderWatcher['busy'];
const READY_BATCH = 2000;

/**
 * Watches every folder of the table while the queue is worked in this process: one loop, each tick doing
 * what is due — read the folder table (other processes add, edit and remove folders), check each folder is
 * there, look at the paths events named, scan folders due a full scan, check settling files, hash stable
 * ones, take ready ones, and act on files whose jobs finished. Slow work (hashing, scans, probing) runs
 * beside the loop, one of each kind per folder, so one large file never holds up the other folders.
 */
export class WatcherLoop {
  private readonly owner = randomUUID();
  private readonly folders = new Map<number, FolderWatcher>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly hashing = new Set<number>();
  private readonly hashQueue: { folder: FolderWatcher; fileId: number }[] = [];
  private inflightHashes = 0;
  /** Work beside the loop other than availability checks (a stat each, which keep no loop awake). */
  private working = 0;
  private readonly controller = new AbortController();
  private revisions = '';
  private folderSyncAt = 0;
  private heartbeatAt = 0;
  private readonly clock = new WallClockSteps();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeUp: () => void = () => {};
  private stopped = false;
  /** The last tick found nothing to do: the loop sleeps until its next deadline, or an event. */
  private idle = false;
  private stopListening: () => void = () => {};
  /** Moves with every commit to the jobs (this process's or another's). */
  private commits = 0;

  constructor(private readonly env: WatchEnv) {}

  start(): void {
    if (this.running) return;
    this.stopListening = this.env.store.changes.subscribe((c) => this.heard(c));
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
    this.stopListening();
    this.controller.abort();
    this.wakeUp();
    await this.running;
    await Promise.allSettled([...this.inflight]);
    await Promise.allSettled([...this.folders.values()].map((f) => f.close()));
    this.folders.clear();
    this.env.watch.beat.dropHeartbeat(this.owner);
  }

  /**
   * A commit: the folders' jobs may have moved (their outcomes are looked at again); a folder table a user
   * changed, or another process's change while nothing is under way here, is looked at now. A write to the
   * folders alone (their state, a scan, their files) leaves their jobs as they were.
   */
  private heard(c: Changes): void {
    if (c.jobs.size || c.removed.length || c.allJobs) this.commits++;
    if (c.foreign ? this.idle : c.folderTable) this.wake();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      loopTurns.watcher++;
      let sleep = this.env.timing.tickMs;
      try {
        sleep = await this.tick();
      } catch (e) {
        this.env.warn({ error: (e as Error).message }, 'watcher tick failed');
      }
      await new Promise<void>((resolve) => {
        this.timer = setTimeout(resolve, sleep);
        this.wakeUp = () => {
          if (this.timer) clearTimeout(this.timer);
          resolve();
        };
      });
    }
  }

  /** Whether `kind` of work may start in `folder` now: none running, and past the backoff of a failure. */
  private mayRun(folder: FolderWatcher, kind: WorkKind): boolean {
    return !folder.busy[kind] && !this.stopped && Date.now() >= folder.retryAt[kind];
  }

  /**
   * Runs `work` beside the loop, at most one per folder and kind. A failure is logged with the folder and
   * tried again after a backoff: not at once, where a cause that stays (a damaged record) would spin the loop.
   */
  private beside(folder: FolderWatcher, kind: WorkKind, work: () => Promise<unknown>): void {
    if (!this.mayRun(folder, kind)) return;
    folder.busy[kind] = true;
    const counts = kind !== 'availability';
    if (counts) this.working++;
    let failed = false;
    // A step that throws before its first await (reading its rows) rejects like any other: a busy flag left
    // set would stop that kind of work in this folder for good.
    const p = new Promise((resolve) => resolve(work()))
      .then(() => {
        folder.failures[kind] = 0;
      })
      .catch((e: unknown) => {
        failed = true;
        const n = ++folder.failures[kind];
        const at = Date.now() + backoffDelay(n, { baseMs: this.env.timing.tickMs, capMs: RETRY_CAP_MS });
        folder.retryAt[kind] = at;
        this.env.warn(
          {
            folder: folder.row.path,
            error: (e as Error).message,
            failures: n,
            retryAt: new Date(at).toISOString(),
          },
          `watcher ${kind} failed`,
        );
      })
      .finally(() => {
        folder.busy[kind] = false;
        if (counts) this.working--;
        this.inflight.delete(p);
        // An availability check that changed nothing leaves the loop asleep (it wakes itself otherwise).
        if (counts && !failed) this.wakeUp();
      });
    this.inflight.add(p);
  }

  /** The wall clock stepped back (see WallClockSteps): every wait the watcher keeps moves back with it. */
  private clockSteppedBack(back: number): void {
    this.heartbeatAt = 0;
    this.folderSyncAt = 0;
    for (const f of this.folders.values()) f.clockSteppedBack(back);
    this.env.watch.files.shiftWaits(back);
  }

  /** One look at every folder; returns how long to sleep before the next (short while work is under way). */
  private async tick(): Promise<number> {
    const now = Date.now();
    const back = this.clock.back(now);
    if (back) this.clockSteppedBack(back);
    if (now - this.heartbeatAt >= (this.idle ? IDLE_HEARTBEAT_MS : HEARTBEAT_MS)) {
      this.heartbeatAt = now;
      this.env.watch.beat.heartbeat(this.owner, now, machineClockMs());
    }
    if (now >= this.folderSyncAt) {
      this.folderSyncAt = now + this.env.timing.folderSyncMs;
      await this.syncFolders();
    }
    let busy = this.working > 0 || this.inflightHashes > 0 || this.hashQueue.length > 0;
    // Checks due within a tick run together: folders checked in one turn stay on one wake-up, not one each.
    const soon = Date.now() + this.env.timing.tickMs;
    const mark = String(this.commits);
    for (const f of this.folders.values()) {
      if (this.stopped) return 0;
      if (soon >= f.nextAvailabilityAt)
        this.beside(f, 'availability', async () => {
          if (await f.checkAvailability()) this.wakeUp();
        });
      if (!f.available) continue;
      if (f.pending.size) busy = true;
      const paths = [...f.pending];
      f.pending.clear();
      for (const p of paths) await discover(this.env, f.row, f.matcher, p);
      if (f.catchUpDue && this.mayRun(f, 'scan')) {
        f.catchUpDue = false;
        f.scanAgain = false;
        busy = true;
        this.beside(f, 'scan', async () => {
          try {
            if (await f.catchUp(() => this.stopped)) this.scanned(f);
            else f.nextAvailabilityAt = 0;
          } catch (e) {
            f.catchUpDue = true; // again after the backoff
            throw e;
          }
        });
      } else if (Date.now() >= f.nextScanAt && this.mayRun(f, 'scan')) {
        f.scanAgain = false;
        busy = true;
        this.beside(f, 'scan', async () => {
          const ok = await fullScan(this.env, f.row, f.matcher, () => this.stopped);
          if (!ok) f.nextAvailabilityAt = 0;
          else this.scanned(f);
        });
      }
      await this.checkDue(f);
      if (this.mayRun(f, 'take') && this.env.watch.files.hasStatus(f.row.id, 'ready'))
        this.beside(f, 'take', () =>
          takeReady(this.env, f.row, this.env.watch.files.withStatus(f.row.id, 'ready', READY_BATCH)),
        );
      // The folder's jobs are counted again only after a write (a folder of 10,000 dubbed files has 20,000).
      if (f.jobsLookedAt !== mark) this.lookAtOutcomes(f, mark);
    }
    this.runHashes();
    return this.nextSleep(busy || this.working > 0 || this.inflightHashes > 0);
  }

  private scanned(f: FolderWatcher): void {
    if (this.stopped) return;
    this.env.watch.folders.scanned(f.row.id, Date.now());
    f.scanned();
    // A scan may find an original whose move failed back in place: outcomes are looked at again then.
    if (this.env.watch.folders.hasProblems(f.row.id)) {
      f.jobSignature = '';
      f.jobsLookedAt = '';
    }
  }

  /** When the folder's jobs changed since last looked at: outcomes are recorded (and originals moved). */
  private lookAtOutcomes(f: FolderWatcher, mark: string): void {
    const signature = this.env.watch.links.jobSignature(f.row.id);
    if (signature === f.jobSignature) {
      f.jobsLookedAt = mark;
      return;
    }
    if (!this.mayRun(f, 'outcomes')) return; // looked at again next turn
    f.jobsLookedAt = mark;
    this.beside(f, 'outcomes', async () => {
      try {
        await settleOutcomes(this.env, f.row);
        f.jobSignature = signature;
        if (f.row.outcomes_signature !== signature && !this.stopped) {
          this.env.watch.folders.outcomesRecorded(f.row.id, signature);
          f.row = { ...f.row, outcomes_signature: signature };
        }
      } catch (e) {
        f.jobsLookedAt = '';
        throw e;
      }
    });
  }

  /**
   * Busy: the next tick comes soon. Otherwise the loop sleeps until the first deadline (a folder's
   * availability check or full scan, a settling file's look, the folder table's re-read), at most
   * `idleMs`; an event, a change asked here, or another process's write wakes it before.
   */
  private nextSleep(busy: boolean): number {
    const { tickMs, idleMs } = this.env.timing;
    this.idle = !busy;
    if (busy) return tickMs;
    const now = Date.now();
    let at = now + Math.max(idleMs, tickMs);
    for (const f of this.folders.values()) {
      at = Math.min(at, f.nextAvailabilityAt);
      if (!f.available) continue;
      at = Math.min(at, f.nextScanAt, this.env.watch.files.nextCheckAt(f.row.id) ?? Infinity);
    }
    return Math.max(tickMs, at - now);
  }

  /** Settling and waiting files whose time has come; stable ones join the hash queue. */
  private async checkDue(f: FolderWatcher): Promise<void> {
    for (const row of this.env.watch.files.due(f.row.id, Date.now(), DUE_BATCH)) {
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
      const row = this.env.watch.files.get(next.fileId);
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
    const rows = this.env.watch.folders.all();
    const revisions = rows.map((r) => `${r.id}:${r.revision}`).join(',');
    if (revisions === this.revisions) return;
    this.revisions = revisions;
    const active = new Map<number, WatchFolderRow>(rows.filter((r) => !r.paused).map((r) => [r.id, r]));
    for (const [id, f] of this.folders) {
      if (!active.has(id)) {
        this.folders.delete(id);
        await f.close();
        // Removed, not paused: its snapshot is of no use to anyone.
        if (!rows.some((r) => r.id === id)) f.dropSnapshots();
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
      if (rescan) f.scanSoon();
    }
  }
}

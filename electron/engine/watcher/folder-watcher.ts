import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { WatchFolderRow } from '../db/watch';
import { outRootOf, type WatchEnv } from './env';
import { IgnoreMatcher } from './ignore';
import { fullScan, reconcilePaths, stampedChanged } from './scan';
import { FolderSnapshots } from './snapshots';
import { TreeWatch } from './tree-watch';
import { pollDecision, type PollDecision } from './volume';

/** Resolves to `fallback` when `p` takes longer than `ms` (a hung network mount must not hang the watcher). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref?.();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** Why a folder cannot be watched now, in words; null when it can. */
async function unavailableBecause(path: string): Promise<string | null> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return `${path} is no longer a folder`;
    await access(path, constants.R_OK | constants.X_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return `${path} is not there (drive unplugged, share down, or the folder was moved or deleted); watching resumes when it is back`;
    if (code === 'EACCES' || code === 'EPERM') return `${path} cannot be read (permission denied)`;
    return `${path} cannot be reached (${code ?? (e as Error).message})`;
  }
}

/** The settings a change of which means a new watcher. */
const shapeOf = (row: WatchFolderRow) =>
  JSON.stringify([
    row.path,
    row.preset.recursive,
    row.preset.polling,
    outRootOf(row),
    row.preset.naming,
    row.preset.to,
  ]);

/**
 * One watched folder in the watching process: its file-system events (`@parcel/watcher`: one native watch
 * per folder tree, events become paths to look at) or, for a polled folder, a full scan every poll; its
 * availability (checked on a timer and on watcher errors: a folder that went away is unwatched, nothing is
 * forgotten, and it is watched again, with a full scan, once it is back), and when it is due a full scan.
 */
export class FolderWatcher {
  matcher: IgnoreMatcher;
  /** Paths events named since the last tick. */
  readonly pending = new Set<string>();
  available = false;
  nextAvailabilityAt = 0;
  nextScanAt = Number.POSITIVE_INFINITY;
  /**
   * The folder's jobs (count and newest change) when its outcomes were last recorded, kept in its row
   * across restarts: outcomes are looked at when it moves.
   */
  jobSignature = '';
  /** The database's change mark when `jobSignature` was last compared: not again until it moves. */
  jobsLookedAt = '';
  busy = { availability: false, scan: false, take: false, outcomes: false };
  /** Failures in a row of each kind of work, and when it may run again (its backoff). */
  readonly failures = { availability: 0, scan: 0, take: 0, outcomes: 0 };
  readonly retryAt = { availability: 0, scan: 0, take: 0, outcomes: 0 };
  /** The wall clock stepped back `back` ms: its waits keep their real length. */
  clockSteppedBack(back: number): void {
    this.nextAvailabilityAt -= back;
    this.nextScanAt -= back;
    for (const kind of Object.keys(this.retryAt) as (keyof typeof this.retryAt)[]) this.retryAt[kind] -= back;
  }
  /** Events are heard: the folder's catch-up is to run. */
  catchUpDue = false;
  /** A full scan was asked for since the last one started: another follows it. */
  scanAgain = false;
  private tree: TreeWatch | null = null;
  private readonly snapshots: FolderSnapshots;
  private shape: string;
  private poll: PollDecision = { polled: false, reason: null };
  private closed = false;
  /** The watched folder itself went away (its watch with it), even if one is back there already. */
  private rootLost = false;
  private probe: Promise<string | null> | null = null;

  constructor(
    private readonly env: WatchEnv,
    public row: WatchFolderRow,
    private readonly wake: () => void,
  ) {
    this.matcher = this.matcherOf(row);
    this.shape = shapeOf(row);
    this.jobSignature = row.outcomes_signature;
    this.snapshots = new FolderSnapshots(env.snapshotDir, env.watch);
  }

  private matcherOf(row: WatchFolderRow): IgnoreMatcher {
    return new IgnoreMatcher({
      root: row.path,
      outRoot: outRootOf(row),
      recursive: row.preset.recursive,
      naming: row.preset.naming,
      languages: row.preset.to,
    });
  }

  /** A new version of the folder's row (another process changed it): rewatch if what is watched changed. */
  async configure(row: WatchFolderRow): Promise<void> {
    const shape = shapeOf(row);
    this.row = row;
    if (shape === this.shape) return;
    this.shape = shape;
    this.matcher = this.matcherOf(row);
    await this.stopWatcher();
    this.available = false;
    this.nextAvailabilityAt = 0;
  }

  /**
   * Looks whether the folder is there; starts or stops watching it on a change (then true: the loop has
   * something to do). The next look is due within a period from now, set before waiting, so the loop sleeps
   * past it.
   */
  async checkAvailability(): Promise<boolean> {
    const { timing } = this.env;
    // A folder watched through file-system events reports its own removal (and watcher errors end the
    // wait): it is looked at seldom. Unavailable and polled folders are looked at often.
    const every =
      this.available && !this.poll.polled
        ? Math.max(timing.availabilityMs, timing.idleMs)
        : timing.availabilityMs;
    // Due on a grid of its period, not a period from now: the folders checked in one turn (one after another,
    // awaits apart) and one whose check fell on a turn of its own (slower to start) come due at one moment,
    // one wake-up for all, however late a loaded machine runs each of them. A check the turn ran a moment
    // early (due within the turn) counts from when it was due.
    const from = Math.max(Date.now(), this.nextAvailabilityAt);
    this.nextAvailabilityAt = (Math.floor(from / every) + 1) * every;
    // A stat on a hung network mount may never return: it is waited for with a deadline, and not asked
    // again while it hangs (each one would hold a thread of the pool every file operation shares).
    this.probe ??= unavailableBecause(this.row.path).finally(() => {
      this.probe = null;
    });
    const why = await within(
      this.probe,
      timing.availabilityTimeoutMs,
      `${this.row.path} does not answer (network share down?); watching resumes when it does`,
    );
    if (this.closed) return false;
    if (why) {
      if (!this.available && this.row.status === 'unavailable' && this.row.status_message === why)
        return false;
      this.available = false;
      this.rootLost = false;
      await this.stopWatcher();
      this.setState('unavailable', why);
      this.env.warn({ folder: this.row.path }, why);
      return true;
    }
    if (this.available && !this.rootLost) return false;
    if (this.rootLost) {
      // Removed and made again at once: the watch followed the old folder; the new one gets its own.
      this.rootLost = false;
      this.available = false;
      await this.stopWatcher();
      if (this.closed) return false;
    }
    this.poll = await within(
      pollDecision(this.row.path, this.row.preset.polling),
      timing.availabilityTimeoutMs,
      { polled: true, reason: 'the folder answers slowly' },
    );
    if (this.closed) return false;
    this.setState('starting', null);
    // The catch-up with whatever arrived while nobody was looking runs once events are heard (so nothing
    // made between it and the watch is missed). A polled folder's scans are its poll.
    this.nextScanAt = this.poll.polled ? 0 : Number.POSITIVE_INFINITY;
    if (!this.poll.polled) this.startWatcher();
    this.available = true;
    // Files another process (or this one, before the folder went away) was settling or about to hash.
    this.env.watch.files.recheckSettling(this.row.id, Date.now());
    this.env.info({ folder: this.row.path, polled: this.poll.polled }, 'watching folder');
    return true;
  }

  /**
   * After a full scan: the folder is watched (the first scan ends `starting`). A polled folder is scanned
   * again on a timer; one watched through events only when asked, or when its watcher reports an error.
   */
  scanned(): void {
    const { pollMs, eventRescanMs } = this.env.timing;
    this.nextScanAt = this.scanAgain ? 0 : Date.now() + (this.poll.polled ? pollMs : eventRescanMs);
    if (this.available && this.row.status !== 'watching') this.setState('watching', null);
  }

  setState(status: WatchFolderRow['status'], message: string | null): void {
    this.row = {
      ...this.row,
      status,
      status_message: message,
      polled: this.poll.polled ? 1 : 0,
      poll_reason: this.poll.reason,
    };
    this.env.watch.folders.setState(this.row.id, {
      status,
      message,
      polled: this.poll.polled,
      pollReason: this.poll.reason,
    });
  }

  private startWatcher(): void {
    const root = this.row.path;
    const tree = new TreeWatch({
      root,
      recursive: this.row.preset.recursive,
      outRoot: outRootOf(this.row),
      ignored: (p) => this.matcher.ignored(p),
      seen: (paths) => {
        for (const p of paths) this.pending.add(p);
        this.wake();
      },
      rootGone: () => {
        this.rootLost = true;
        this.nextAvailabilityAt = 0;
        this.wake();
      },
      lost: (e) => {
        this.env.warn({ folder: root, error: e.message }, 'watcher error');
        this.nextAvailabilityAt = 0;
        this.scanSoon();
      },
      rescan: () => this.scanSoon(),
    });
    this.tree = tree;
    tree.start().then(
      () => {
        if (this.tree !== tree) return;
        this.catchUpDue = true;
        this.wake();
      },
      (e: unknown) => {
        if (this.tree !== tree) return;
        this.tree = null;
        // No events to be had (the system's limit on watches reached, say): the folder is polled instead.
        const why = `file-system events failed: ${(e as Error).message}`;
        this.env.warn({ folder: root }, why);
        this.poll = { polled: true, reason: why };
        this.setState('starting', null);
        this.nextScanAt = 0;
        this.wake();
      },
    );
  }

  /**
   * Catches the database up with the folder once its events are heard: what changed since its snapshot
   * (a restart over 50,000 unchanged files looks at none of them, but those whose mtime a tool set), or,
   * without one, a walk of every file.
   * A new snapshot, taken first, counts once this is over. False when the folder could not be read.
   */
  async catchUp(stopped: () => boolean): Promise<boolean> {
    const tree = this.tree;
    if (!tree) return fullScan(this.env, this.row, this.matcher, stopped);
    const snaps = this.snapshots;
    const fresh = await this.snapshotNow(tree);
    const since = snaps.usable(this.row, this.shape);
    const diff = since ? await tree.changedSince(since).catch(() => null) : null;
    // The snapshot compares mtimes only: a file whose mtime a tool set may have other content, same mtime.
    const stamped = diff && (await stampedChanged(this.env.watch.files.toolStamped(this.row.id)));
    const changed = diff && stamped && [...new Set([...diff, ...stamped])];
    const ok = changed
      ? (await reconcilePaths(this.env, this.row, this.matcher, changed, stopped), true)
      : await fullScan(this.env, this.row, this.matcher, stopped);
    try {
      if (!ok || stopped() || this.tree !== tree || !fresh) snaps.drop(this.row.id, this.row.snapshot);
      else {
        snaps.commit(this.row, fresh);
        this.row = { ...this.row, snapshot: basename(fresh) };
      }
    } catch (e) {
      // The catch-up itself is done: the next restart walks the folder (or uses the older snapshot).
      this.env.warn(
        { folder: this.row.path, error: (e as Error).message },
        'the folder snapshot was not kept',
      );
    }
    return ok;
  }

  /** A new snapshot of the tree (it counts once committed); null when it cannot be written (disk full). */
  private async snapshotNow(tree: TreeWatch): Promise<string | null> {
    try {
      const file = this.snapshots.fresh(this.row, this.shape);
      await tree.snapshot(file);
      return file;
    } catch (e) {
      this.env.warn({ folder: this.row.path, error: (e as Error).message }, 'no folder snapshot written');
      return null;
    }
  }

  private async stopWatcher(): Promise<void> {
    const tree = this.tree;
    this.tree = null;
    this.catchUpDue = false;
    this.pending.clear();
    await tree?.stop();
  }

  /** A full scan as soon as none runs (after the one running, if one is). */
  scanSoon(): void {
    this.scanAgain = true;
    this.nextScanAt = 0;
    this.wake();
  }

  dropSnapshots(): void {
    this.snapshots.drop(this.row.id);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWatcher();
  }
}

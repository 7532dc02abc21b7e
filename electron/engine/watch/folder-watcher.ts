import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { subscribe, type AsyncSubscription, type Event } from '@parcel/watcher';
import type { WatchFolderRow } from '../db/watch';
import { outRootOf, type WatchEnv } from './env';
import { IgnoreMatcher, inside } from './ignore';
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
  /** The folder's jobs as last seen (count and newest change): outcomes are looked at when it moves. */
  jobSignature = '';
  /** The database's change mark when `jobSignature` was last compared: not again until it moves. */
  jobsLookedAt = '';
  busy = { availability: false, scan: false, take: false, outcomes: false };
  /** The live subscription (or the promise of it): replaced or dropped when watching stops. */
  private events: Promise<AsyncSubscription | null> | null = null;
  private shape: string;
  private poll: PollDecision = { polled: false, reason: null };
  private closed = false;
  private probe: Promise<string | null> | null = null;

  constructor(
    private readonly env: WatchEnv,
    public row: WatchFolderRow,
    private readonly wake: () => void,
  ) {
    this.matcher = this.matcherOf(row);
    this.shape = shapeOf(row);
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
   * something to do). The next look is due from now, set before waiting, so the loop sleeps past it.
   */
  async checkAvailability(): Promise<boolean> {
    const { timing } = this.env;
    // A folder watched through file-system events reports its own removal (and watcher errors end the
    // wait): it is looked at seldom. Unavailable and polled folders are looked at often.
    const every =
      this.available && !this.poll.polled
        ? Math.max(timing.availabilityMs, timing.idleMs)
        : timing.availabilityMs;
    this.nextAvailabilityAt = Date.now() + every;
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
      await this.stopWatcher();
      this.setState('unavailable', why);
      this.env.warn({ folder: this.row.path }, why);
      return true;
    }
    if (this.available) return false;
    this.poll = await within(
      pollDecision(this.row.path, this.row.preset.polling),
      timing.availabilityTimeoutMs,
      { polled: true, reason: 'the folder answers slowly' },
    );
    if (this.closed) return false;
    this.setState('starting', null);
    // The catch-up with whatever arrived while nobody was looking is a full scan, once events are heard
    // (so nothing made between the walk and the watch is missed). A polled folder's scans are its poll.
    this.nextScanAt = this.poll.polled ? 0 : Number.POSITIVE_INFINITY;
    if (!this.poll.polled) this.startWatcher();
    this.available = true;
    // Files another process (or this one, before the folder went away) was settling or about to hash.
    this.env.watch.recheckSettling(this.row.id, Date.now());
    this.env.info({ folder: this.row.path, polled: this.poll.polled }, 'watching folder');
    return true;
  }

  /**
   * After a full scan: the folder is watched (the first scan ends `starting`). A polled folder is scanned
   * again on a timer; one watched through events only when asked, or when its watcher reports an error.
   */
  scanned(): void {
    const { pollMs, eventRescanMs } = this.env.timing;
    this.nextScanAt = Date.now() + (this.poll.polled ? pollMs : eventRescanMs);
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
    this.env.watch.setFolderState(this.row.id, {
      status,
      message,
      polled: this.poll.polled,
      pollReason: this.poll.reason,
    });
    this.env.folderChanged(this.row.id);
  }

  private startWatcher(): void {
    const root = this.row.path;
    const recursive = this.row.preset.recursive;
    const outRoot = outRootOf(this.row);
    const onEvents = (err: Error | null, events: Event[]) => {
      if (this.events !== started) return;
      if (err) {
        this.env.warn({ folder: root, error: err.message }, 'watcher error');
        this.nextAvailabilityAt = 0;
        this.nextScanAt = 0;
      }
      for (const { path } of events) {
        // The folder itself removed or moved away: its availability says what now.
        if (path === root) this.nextAvailabilityAt = 0;
        else if ((recursive || dirname(path) === root) && !this.matcher.ignored(path)) this.pending.add(path);
      }
      this.wake();
    };
    // Not even watched: the results folder inside the folder, and subfolders of a folder that is not
    // recursive (their events would be dropped anyway).
    const ignore = [
      ...(inside(root, outRoot) && outRoot !== root ? [outRoot] : []),
      ...(recursive ? [] : ['*/**']),
    ];
    const started: Promise<AsyncSubscription | null> = subscribe(root, onEvents, { ignore }).then(
      (sub) => {
        if (this.events !== started) {
          void sub.unsubscribe().catch(() => {});
          return null;
        }
        this.nextScanAt = 0;
        this.wake();
        return sub;
      },
      (e: unknown) => {
        if (this.events !== started) return null;
        // No events to be had (the system's limit on watches reached, say): the folder is polled instead.
        const why = `file-system events failed: ${(e as Error).message}`;
        this.env.warn({ folder: root }, why);
        this.poll = { polled: true, reason: why };
        this.setState('starting', null);
        this.nextScanAt = 0;
        this.wake();
        return null;
      },
    );
    this.events = started;
  }

  private async stopWatcher(): Promise<void> {
    const events = this.events;
    this.events = null;
    this.pending.clear();
    const sub = await events;
    await sub?.unsubscribe().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWatcher();
  }
}

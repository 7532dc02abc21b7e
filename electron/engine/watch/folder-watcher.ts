import { constants, type Stats } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { WatchFolderRow } from '../db/watch';
import { outRootOf, type WatchEnv } from './env';
import type { Seen } from './file-check';
import { IgnoreMatcher } from './ignore';
import type { Found } from './scan';
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

/** A regular file's stats as a full scan's look would read them; anything else is `other`. */
const seenOf = (s: Stats): Seen =>
  s.isFile() ? { kind: 'file', size: s.size, mtimeMs: Math.round(s.mtimeMs) } : { kind: 'other' };

/** The settings a change of which means a new chokidar watcher. */
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
 * One watched folder in the watching process: its chokidar watcher (events become paths to look at), its
 * availability (checked on a timer and on watcher errors: a folder that went away is unwatched, nothing is
 * forgotten, and it is watched again, with a full scan, once it is back), and when it is due a full scan.
 */
export class FolderWatcher {
  matcher: IgnoreMatcher;
  /** Paths events named since the last tick. */
  readonly pending = new Set<string>();
  /** What the watcher's first walk found, once it is over: the catch-up reconciles it (then null). */
  caughtUp: Found | null = null;
  available = false;
  nextAvailabilityAt = 0;
  nextScanAt = Number.POSITIVE_INFINITY;
  /** The folder's jobs as last seen (count and newest change): outcomes are looked at when it moves. */
  jobSignature = '';
  /** The database's change mark when `jobSignature` was last compared: not again until it moves. */
  jobsLookedAt = '';
  busy = { availability: false, scan: false, take: false, outcomes: false };
  /** Failures in a row of each kind of work, and when it may run again (its backoff). */
  readonly failures = { availability: 0, scan: 0, take: 0, outcomes: 0 };
  readonly retryAt = { availability: 0, scan: 0, take: 0, outcomes: 0 };
  private fsw: FSWatcher | null = null;
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
    // The catch-up with whatever arrived while nobody was looking is the watcher's own first walk (it
    // stats every file to watch them): no second walk beside it.
    this.nextScanAt = Number.POSITIVE_INFINITY;
    this.startWatcher();
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
    const { rescanMs, eventRescanMs } = this.env.timing;
    this.nextScanAt = Date.now() + (this.poll.polled ? rescanMs : eventRescanMs);
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
    const { timing } = this.env;
    const root = this.row.path;
    let initial: Found | null = new Map();
    const fsw = watch(root, {
      persistent: false,
      // As a full scan: a symlinked folder is not walked into (a symlinked file is looked at by its target).
      followSymlinks: false,
      ignorePermissionErrors: true,
      ...(this.row.preset.recursive ? {} : { depth: 0 }),
      backend: this.poll.polled ? 'polling' : 'auto',
      pollingInterval: timing.pollMs,
      pollingBinaryInterval: timing.pollMs,
      ignored: (p: string, stats?: { isDirectory(): boolean }) =>
        this.matcher.ignored(p, stats ? (stats.isDirectory() ? 'dir' : 'file') : undefined),
    });
    const seen = (p: string) => {
      this.pending.add(p);
      this.wake();
    };
    fsw.on('add', (p: string, stats?: Stats) => {
      if (!initial) return seen(p);
      initial.set(p, stats && !stats.isSymbolicLink() ? seenOf(stats) : null);
    });
    fsw.on('ready', () => {
      this.caughtUp = initial;
      initial = null; // handed over: not kept for the watcher's life
      this.wake();
    });
    fsw.on('change', seen);
    fsw.on('unlink', seen);
    fsw.on('unlinkDir', (p) => {
      if (p === root) this.nextAvailabilityAt = 0;
      this.wake();
    });
    fsw.on('error', (e) => {
      this.env.warn({ folder: root, error: String(e) }, 'watcher error');
      this.nextAvailabilityAt = 0;
      this.nextScanAt = 0;
      this.wake();
    });
    this.fsw = fsw;
  }

  private async stopWatcher(): Promise<void> {
    const fsw = this.fsw;
    this.fsw = null;
    this.pending.clear();
    this.caughtUp = null;
    if (fsw) await fsw.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWatcher();
  }
}

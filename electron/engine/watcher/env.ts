import type { Spending } from '../../../shared/contract/spending';
import { join } from 'node:path';
import type { ContractError } from '../../../shared/contract/errors';
import type { WatchPreset } from '../../../shared/contract/watch';
import type { JobStore, NewJob } from '../db/jobs';
import type { WatchFolderRow, WatchStore } from '../db/watch';

/** How patient the watcher is; tests shorten every figure. */
export interface WatchTiming {
  /** A file is taken once its size and mtime stayed the same this long. */
  settleMs: number;
  /** After this long waiting (still growing, unreadable, not media), a file needs attention. */
  maxWaitMs: number;
  /**
   * A folder watched through events is scanned fully this often: never by default (its watcher started
   * with a walk of every file, and reports errors and lost events); tests shorten it to see scans come.
   */
  eventRescanMs: number;
  /**
   * How often a polled folder (network share, removable drive) is walked: every file stat'ed, none opened.
   */
  pollMs: number;
  /** The watcher's loop while it has work (events to look at, files settling soon, hashes, scans). */
  tickMs: number;
  /** Its longest sleep when idle: it wakes sooner for an event, a deadline, or another process's change. */
  idleMs: number;
  /** How often the folder table is read for changes made by other processes (CLI while the app runs). */
  folderSyncMs: number;
  /** How often each folder is checked to still be there. */
  availabilityMs: number;
  /** A folder that does not answer this long (a hung network mount) is unavailable. */
  availabilityTimeoutMs: number;
  /** Files hashed at once (each holds one of the four threads Node's file operations share). */
  hashConcurrency: number;
}

export const DEFAULT_WATCH_TIMING: WatchTiming = {
  settleMs: 3000,
  maxWaitMs: 15 * 60_000,
  eventRescanMs: Number.POSITIVE_INFINITY,
  pollMs: 5000,
  tickMs: 250,
  idleMs: 10_000,
  folderSyncMs: 1000,
  availabilityMs: 2000,
  availabilityTimeoutMs: 10_000,
  hashConcurrency: 2,
};

/** The jobs `add` would make for these files (probed as `add` probes), and the files it refuses. */
export interface PlannedFiles {
  jobs: NewJob[];
  refused: { input: string; error: ContractError }[];
}

/** What the watcher needs from the engine around it (the application layer provides it). */
export interface WatchEnv {
  store: JobStore;
  watch: WatchStore;
  timing: WatchTiming;
  /** Where the folders' snapshots go (watcher/snapshots.ts). */
  snapshotDir: string;
  plan(paths: readonly string[], preset: WatchPreset, folderId: number): Promise<PlannedFiles>;
  /** The balance now; null when the service cannot be asked. */
  balance(): Promise<number | null>;
  /** The monthly budget: this month's charges and what is queued against it (null: none). */
  budget?(): Spending['budget'];
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Where a folder's results go: its preset's outDir, else `dubbed/` inside it. */
export const outRootOf = (folder: Pick<WatchFolderRow, 'path' | 'preset'>): string =>
  folder.preset.outDir ?? join(folder.path, 'dubbed');

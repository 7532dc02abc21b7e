import type { JobState } from '../../../shared/contract/jobs';
import type { JobRow } from './job-store/rows';

/** A history entry as it was written (the engine logs those of single jobs). */
export interface HistoryEntry {
  jobId: number;
  from: JobState | null;
  to: JobState;
  event: string;
  reason: string | null;
}

/**
 * What one commit changed, told once, after it committed (never a change that was rolled back). A commit
 * by another process on the same database says only which areas moved (`foreign`, with `allJobs`,
 * `allFolders`, `settings` or `lock` set): what exactly, it cannot say.
 */
export interface Changes {
  /** Jobs this process changed, with the row after the change when the writer had it (null: read it). */
  readonly jobs: ReadonlyMap<number, JobRow | null>;
  /** Of those, the ones just queued. */
  readonly added: readonly number[];
  /** Jobs taken off the list (deleted, cleared). */
  readonly removed: readonly number[];
  /** Jobs changed that are not named one by one (moved to the history, another process's commit). */
  readonly allJobs: boolean;
  /** A job may be due to be worked (or polled) sooner than the worker planned. */
  readonly due: boolean;
  /** A source's package changed (wanted, made, failed): the faces list again. */
  readonly packages: boolean;
  /** Watched folders whose row, files or links changed. */
  readonly folders: ReadonlySet<number>;
  /** Watched folders changed that are not named one by one (another process's commit). */
  readonly allFolders: boolean;
  /** A user changed the folder table (added, edited, paused, removed a folder, asked a rescan). */
  readonly folderTable: boolean;
  /** Settings every process shares (the app's settings, the queue's pause); keys, or all of them. */
  readonly settings: ReadonlySet<string> | 'all';
  /** A process took or gave back the queue's lock. */
  readonly lock: boolean;
  /** A named preset was saved or deleted. */
  readonly presets: boolean;
  /** The worker's transfer rates were published (`db/published-rates.ts`). */
  readonly rates: boolean;
  /** History entries to log (not those of a bulk add: its batch is logged once). */
  readonly history: readonly HistoryEntry[];
  /** Another process committed this. */
  readonly foreign: boolean;
}

export type ChangeListener = (changes: Changes) => void;

/** The areas whose marks another process reads (`db/foreign-commits.ts`). */
export type Area = 'jobs' | 'folders' | 'settings' | 'lock' | 'presets' | 'rates';

/** Keys of the settings table every process shares: a change to them is announced (not caches, heartbeats). */
export const SHARED_SETTINGS: readonly string[] = ['app.settings', 'queue.pause'];

/** What the transaction under way changed so far; `take` hands it over and starts afresh. */
export class PendingChanges {
  private jobs = new Map<number, JobRow | null>();
  private added: number[] = [];
  private removed: number[] = [];
  private allJobs = false;
  private due = false;
  private packages = false;
  private folders = new Set<number>();
  private allFolders = false;
  private folderTable = false;
  private settings = new Set<string>();
  private lock = false;
  private presets = false;
  private rates = false;
  private history: HistoryEntry[] = [];

  /** The job's row was written: `row` as it is now, or null when the writer has not got it whole. */
  job(id: number, row: JobRow | null = null): void {
    this.jobs.set(id, row);
  }

  /** Something of the job's other than its row changed (its outputs): the row, if known, still holds. */
  jobTouched(id: number): void {
    if (!this.jobs.has(id)) this.jobs.set(id, null);
  }

  jobsAdded(ids: readonly number[]): void {
    for (const id of ids) {
      this.jobs.set(id, null);
      this.added.push(id);
    }
    if (ids.length) this.due = true;
  }

  jobsRemoved(ids: readonly number[]): void {
    for (const id of ids) this.jobs.delete(id);
    this.removed.push(...ids);
  }

  someJobs(): void {
    this.allJobs = true;
  }

  dueSooner(): void {
    this.due = true;
  }

  packagesChanged(): void {
    this.packages = true;
  }

  folder(id: number, byUser = false): void {
    this.folders.add(id);
    if (byUser) this.folderTable = true;
  }

  /** Every folder's view may have changed (a watching process started or stopped). */
  someFolders(): void {
    this.allFolders = true;
  }

  setting(key: string): void {
    if (SHARED_SETTINGS.includes(key)) this.settings.add(key);
  }

  lockChanged(): void {
    this.lock = true;
  }

  presetsChanged(): void {
    this.presets = true;
  }

  ratesChanged(): void {
    this.rates = true;
  }

  logged(entry: HistoryEntry): void {
    this.history.push(entry);
  }

  /** The areas another process must hear of. */
  areas(): Area[] {
    const areas: Area[] = [];
    // Packages show on their sources' rows: another process lists its jobs again.
    if (this.jobs.size || this.removed.length || this.allJobs || this.packages) areas.push('jobs');
    if (this.folders.size || this.allFolders) areas.push('folders');
    if (this.settings.size) areas.push('settings');
    if (this.lock) areas.push('lock');
    if (this.presets) areas.push('presets');
    if (this.rates) areas.push('rates');
    return areas;
  }

  get empty(): boolean {
    return this.areas().length === 0 && !this.due && this.history.length === 0;
  }

  take(): Changes {
    const changes: Changes = {
      jobs: this.jobs,
      added: this.added,
      removed: this.removed,
      allJobs: this.allJobs,
      due: this.due,
      packages: this.packages,
      folders: this.folders,
      allFolders: this.allFolders,
      folderTable: this.folderTable,
      settings: this.settings,
      lock: this.lock,
      presets: this.presets,
      rates: this.rates,
      history: this.history,
      foreign: false,
    };
    this.discard();
    return changes;
  }

  discard(): void {
    this.jobs = new Map();
    this.added = [];
    this.removed = [];
    this.allJobs = false;
    this.due = false;
    this.packages = false;
    this.folders = new Set();
    this.allFolders = false;
    this.folderTable = false;
    this.settings = new Set();
    this.lock = false;
    this.presets = false;
    this.rates = false;
    this.history = [];
  }
}

/** What another process changed, from the areas whose marks moved. */
export function foreignChanges(areas: ReadonlySet<Area>): Changes {
  return {
    jobs: new Map(),
    added: [],
    removed: [],
    allJobs: areas.has('jobs'),
    due: areas.has('jobs'),
    packages: areas.has('jobs'),
    folders: new Set(),
    allFolders: areas.has('folders'),
    folderTable: areas.has('folders'),
    settings: areas.has('settings') ? 'all' : new Set(),
    lock: areas.has('lock'),
    presets: areas.has('presets'),
    rates: areas.has('rates'),
    history: [],
    foreign: true,
  };
}

/** Whether a change may have moved a setting: `key`, or any when another process changed them. */
export const settingChanged = (changes: Changes, key: string): boolean =>
  changes.settings === 'all' || changes.settings.has(key);

/**
 * The subscribers of one database connection. Each hears every change in the order they were committed;
 * one that throws is reported to `failed` and does not stop the others or the writer.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly queue: Changes[] = [];
  private publishing = false;
  failed: (error: unknown) => void = () => {};

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A subscriber that writes is told of its own write after the others heard the change before it. */
  publish(changes: Changes): void {
    this.queue.push(changes);
    if (this.publishing) return;
    this.publishing = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift())
        for (const listener of [...this.listeners]) {
          try {
            listener(next);
          } catch (e) {
            this.failed(e);
          }
        }
    } finally {
      this.publishing = false;
    }
  }
}

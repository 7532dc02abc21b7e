import type { Spending } from '../../../../shared/contract/spending';
import { join } from 'node:path';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { EngineEventBody } from '../../../../shared/contract/events';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import {
  VERSIONED_PRESET_FIELDS,
  WatchPresetSchema,
  type WatchFolder,
  type WatchPreset,
} from '../../../../shared/contract/watch';
import type { Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import type { WatchFolderRow, WatchStore } from '../../db/watch';
import { DEFAULT_WATCH_TIMING, type PlannedFiles, type WatchEnv, type WatchTiming } from '../../watcher/env';
import { WatcherLoop } from '../../watcher/watcher-loop';
import { absolutePath } from '../paths';
import { approveFolder, reprocessFile, type FileActionContext } from './file-actions';
import { checkOverlap, checkWatchPath, resolvePreset } from './folder-checks';
import { FolderEvents } from './folder-events';
import { fileView, folderView } from './views';

type WatchHandlers = Pick<
  DubdeskHandlers,
  | 'listWatchFolders'
  | 'addWatchFolder'
  | 'updateWatchFolder'
  | 'removeWatchFolder'
  | 'listWatchFiles'
  | 'approveWatchFolder'
  | 'reprocessWatchFile'
  | 'rescanWatchFolder'
>;

/** What the watched folders need from the engine. */
export interface WatchDeps {
  store: JobStore;
  watch: WatchStore;
  /** The data folder: the folders' snapshots go in it. */
  home: string;
  timing?: Partial<WatchTiming>;
  /** Where relative paths start: the CLI's working folder; null for a face that has none. */
  cwd: string | null;
  emit(body: EngineEventBody): void;
  hasListeners(): boolean;
  plan(paths: readonly string[], preset: WatchPreset, folderId: number): Promise<PlannedFiles>;
  balance(): Promise<number | null>;
  /** The monthly budget as it stands (null: none). */
  budget?(): Spending['budget'];
  /** Checks a folder's preset can be used (languages, generation, output folder); throws a contract error. */
  checkPreset(preset: WatchPreset, folder: string): Promise<void>;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

const notFound = (id: number) =>
  new DubdeskError('not-found', `no watched folder ${id}`, {
    remedy: 'List the watched folders to see them.',
  });

/**
 * Watched folders behind the contract: the handlers (any process: the CLI adds a folder while the app
 * runs), the watcher itself while this process works the queue, and the throttled `watch-folder` events.
 */
export class WatchFolders {
  readonly env: WatchEnv;
  private service: WatcherLoop | null = null;
  private readonly events: FolderEvents;
  private closed = false;

  constructor(private readonly deps: WatchDeps) {
    this.env = {
      store: deps.store,
      watch: deps.watch,
      timing: { ...DEFAULT_WATCH_TIMING, ...deps.timing },
      snapshotDir: join(deps.home, 'watch-snapshots'),
      plan: deps.plan,
      balance: deps.balance,
      ...(deps.budget ? { budget: deps.budget } : {}),
      info: deps.info,
      warn: deps.warn,
    };
    this.events = new FolderEvents({
      watch: deps.watch,
      emit: deps.emit,
      hasListeners: deps.hasListeners,
      view: (row) => this.view(row),
    });
  }

  /** Starts watching every folder (while this process works the queue). */
  startWatching(): void {
    if (this.service || this.closed) return;
    this.service = new WatcherLoop(this.env);
    this.service.start();
    this.events.allChanged();
  }

  async stopWatching(): Promise<void> {
    const service = this.service;
    this.service = null;
    if (service) await service.stop();
    this.events.allChanged();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWatching();
    this.events.close();
  }

  /**
   * A commit (the feed's subscriber): the folders it named, or all of them, may show otherwise (their rows,
   * files, or the jobs their counts are made of); a change to the folder table is the watcher's to read.
   */
  heard(changes: Changes): void {
    if (changes.folderTable) this.service?.wake();
    if (changes.allFolders || changes.allJobs || changes.removed.length) return this.events.allChanged();
    for (const id of changes.folders) this.events.changed(id);
    for (const row of changes.jobs.values())
      if (row?.watch_folder_id != null) this.events.changed(row.watch_folder_id);
  }

  private view(row: WatchFolderRow): WatchFolder {
    return folderView(this.deps.watch, row, this.service !== null);
  }

  private folder(id: number): WatchFolderRow {
    const row = this.deps.watch.folders.get(id);
    if (!row) throw notFound(id);
    return row;
  }

  handlers(): WatchHandlers {
    const { watch, cwd } = this.deps;
    return {
      listWatchFolders: () => ({ folders: watch.folders.all().map((r) => this.view(r)) }),

      addWatchFolder: async ({ path: raw, preset: given }) => {
        const path = await checkWatchPath(raw, cwd);
        const preset = resolvePreset(given, cwd);
        await checkOverlap(path, preset.recursive, watch.folders.all());
        await this.deps.checkPreset(preset, path);
        const id = watch.folders.insert(path, preset, Date.now());
        this.deps.info({ id, path }, 'watched folder added');
        return this.view(this.folder(id));
      },

      updateWatchFolder: async ({ id, preset: patch, paused }) => {
        const row = this.folder(id);
        let preset: WatchPreset | undefined;
        let presetVersion: number | undefined;
        if (patch && Object.keys(patch).length) {
          const merged = WatchPresetSchema.safeParse({ ...row.preset, ...patch });
          if (!merged.success)
            throw new DubdeskError('bad-request', `preset: ${merged.error.issues[0]?.message ?? 'invalid'}`, {
              field: 'preset',
            });
          preset = resolvePreset(merged.data, cwd);
          if (preset.recursive && !row.preset.recursive)
            await checkOverlap(
              row.path,
              true,
              watch.folders.all().filter((f) => f.id !== id),
            );
          await this.deps.checkPreset(preset, row.path);
          const before = row.preset;
          const after = preset;
          const bumped = VERSIONED_PRESET_FIELDS.some(
            (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
          );
          if (bumped) presetVersion = row.preset_version + 1;
        }
        watch.folders.update(
          id,
          {
            ...(preset ? { preset } : {}),
            ...(presetVersion !== undefined ? { presetVersion } : {}),
            ...(paused !== undefined ? { paused } : {}),
          },
          Date.now(),
        );
        this.deps.info({ id, presetVersion, paused }, 'watched folder changed');
        return this.view(this.folder(id));
      },

      removeWatchFolder: ({ id }) => {
        const row = this.folder(id);
        watch.folders.remove(id);
        this.deps.info({ id, path: row.path }, 'watched folder removed');
        return { id };
      },

      listWatchFiles: ({ id, statuses, search, offset, limit }) => {
        const folder = this.folder(id);
        const { total, rows } = watch.views.page(id, { statuses, search }, offset, limit);
        const jobs = watch.links.jobIdsOf(rows.map((r) => r.id));
        return { total, offset, files: rows.map((r) => fileView(r, folder.path, jobs.get(r.id) ?? [])) };
      },

      approveWatchFolder: async ({ id }) => approveFolder(this.actionContext(this.folder(id))),

      reprocessWatchFile: async ({ id, path }) => {
        const folder = this.folder(id);
        return reprocessFile(this.actionContext(folder), absolutePath(path, cwd, 'path'));
      },

      rescanWatchFolder: ({ id }) => {
        this.folder(id);
        watch.folders.askRescan(id);
        return this.view(this.folder(id));
      },
    };
  }

  private actionContext(folder: WatchFolderRow): FileActionContext {
    return { env: this.env, folder, info: this.deps.info };
  }
}

import { DubdeskError } from '../../../shared/contract/errors';
import type { EngineEventBody } from '../../../shared/contract/events';
import type { DubdeskHandlers, MethodArgs } from '../../../shared/contract/methods';
import {
  VERSIONED_PRESET_FIELDS,
  WatchPresetSchema,
  type WatchFile,
  type WatchFolder,
  type WatchPreset,
} from '../../../shared/contract/watch';
import type { JobRow, JobStore } from '../db/jobs';
import type { WatchFileRow, WatchFolderRow, WatchStore } from '../db/watch';
import { DEFAULT_WATCH_TIMING, type PlannedFiles, type WatchEnv, type WatchTiming } from '../watch/env';
import { look } from '../watch/file-check';
import { WatchService } from '../watch/service';
import { check, hashAndMark } from '../watch/settle';
import { locationOf, takeReady } from '../watch/take';
import { absolutePath } from './paths';
import { checkOverlap, checkWatchPath, resolvePreset } from './watch-folders';
import { fileView, folderView } from './watch-views';

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
  timing?: Partial<WatchTiming>;
  /** Where relative paths start: the CLI's working folder; null for a face that has none. */
  cwd: string | null;
  emit(body: EngineEventBody): void;
  hasListeners(): boolean;
  plan(paths: readonly string[], preset: WatchPreset, folderId: number): Promise<PlannedFiles>;
  balance(): Promise<number | null>;
  /** Checks a folder's preset can be used (languages, generation, output folder); throws a contract error. */
  checkPreset(preset: WatchPreset, folder: string): Promise<void>;
  jobsChanged(added: readonly number[], changed: readonly JobRow[]): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

const EMIT_EVERY_MS = 300;

const notFound = (id: number) =>
  new DubdeskError('not-found', `no watched folder ${id}`, {
    remedy: 'List the watched folders to see them.',
  });

/**
 * Watched folders behind the contract: the handlers (any process: the CLI adds a folder while the app
 * runs), the watcher itself while this process works the queue, and the throttled `watch-folder` events.
 */
export class WatchFacade {
  readonly env: WatchEnv;
  private service: WatchService | null = null;
  private readonly dirty = new Set<number>();
  private readonly emitted = new Map<number, string>();
  private emitTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: WatchDeps) {
    this.env = {
      store: deps.store,
      watch: deps.watch,
      timing: { ...DEFAULT_WATCH_TIMING, ...deps.timing },
      plan: deps.plan,
      balance: deps.balance,
      jobsChanged: deps.jobsChanged,
      folderChanged: (id) => this.folderChanged(id),
      info: deps.info,
      warn: deps.warn,
    };
  }

  /** Starts watching every folder (while this process works the queue). */
  startWatching(): void {
    if (this.service || this.closed) return;
    this.service = new WatchService(this.env);
    this.service.start();
    for (const row of this.deps.watch.folders()) this.folderChanged(row.id);
  }

  async stopWatching(): Promise<void> {
    const service = this.service;
    this.service = null;
    if (service) await service.stop();
    for (const row of this.deps.watch.folders()) this.folderChanged(row.id);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWatching();
    if (this.emitTimer) clearTimeout(this.emitTimer);
    this.emitTimer = null;
  }

  /** A job changed: its folder's counts may have. */
  jobChanged(row: JobRow): void {
    if (row.watch_folder_id !== null) this.folderChanged(row.watch_folder_id);
  }

  /** Many jobs changed at once (bulk actions): every folder's counts may have. */
  jobsChanged(): void {
    for (const row of this.deps.watch.folders()) this.folderChanged(row.id);
  }

  folderChanged(id: number): void {
    if (this.closed) return;
    this.dirty.add(id);
    if (this.emitTimer || !this.deps.hasListeners()) return;
    this.emitTimer = setTimeout(() => this.flush(), EMIT_EVERY_MS);
    this.emitTimer.unref?.();
  }

  /** One event per folder whose view changed since it was last told; one per folder removed. */
  private flush(): void {
    this.emitTimer = null;
    if (this.closed) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    for (const id of ids) {
      const row = this.deps.watch.folder(id);
      if (!row) {
        this.emitted.delete(id);
        this.deps.emit({ type: 'watch-folder-removed', id });
        continue;
      }
      const folder = this.view(row);
      const json = JSON.stringify(folder);
      if (this.emitted.get(id) === json) continue;
      this.emitted.set(id, json);
      this.deps.emit({ type: 'watch-folder', folder });
    }
  }

  private view(row: WatchFolderRow): WatchFolder {
    return folderView(this.deps.watch, row, this.service !== null);
  }

  private folder(id: number): WatchFolderRow {
    const row = this.deps.watch.folder(id);
    if (!row) throw notFound(id);
    return row;
  }

  private fileOf(row: WatchFileRow, folder: WatchFolderRow): WatchFile {
    const view = this.deps.watch.view(row.id);
    if (!view)
      throw new DubdeskError('not-found', `${row.path} is not a file of the watched folder ${folder.path}`);
    return fileView(view, folder.path, this.deps.watch.jobIdsOf([row.id]).get(row.id) ?? []);
  }

  /** A change the watching process must act on: told now when it is this one, else it reads the table. */
  private changedFolder(id: number): void {
    this.service?.wake();
    this.folderChanged(id);
  }

  handlers(): WatchHandlers {
    const { watch, cwd } = this.deps;
    return {
      listWatchFolders: () => ({ folders: watch.folders().map((r) => this.view(r)) }),

      addWatchFolder: async ({ path: raw, preset: given }) => {
        const path = await checkWatchPath(raw, cwd);
        const preset = resolvePreset(given, cwd);
        await checkOverlap(path, preset.recursive, watch.folders());
        await this.deps.checkPreset(preset, path);
        const id = watch.insertFolder(path, preset, Date.now());
        this.deps.info({ id, path }, 'watched folder added');
        this.changedFolder(id);
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
              watch.folders().filter((f) => f.id !== id),
            );
          await this.deps.checkPreset(preset, row.path);
          const before = row.preset;
          const after = preset;
          const bumped = VERSIONED_PRESET_FIELDS.some(
            (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
          );
          if (bumped) presetVersion = row.preset_version + 1;
        }
        watch.updateFolder(
          id,
          {
            ...(preset ? { preset } : {}),
            ...(presetVersion !== undefined ? { presetVersion } : {}),
            ...(paused !== undefined ? { paused } : {}),
          },
          Date.now(),
        );
        this.deps.info({ id, presetVersion, paused }, 'watched folder changed');
        this.changedFolder(id);
        return this.view(this.folder(id));
      },

      removeWatchFolder: ({ id }) => {
        const row = this.folder(id);
        watch.removeFolder(id);
        this.deps.info({ id, path: row.path }, 'watched folder removed');
        this.changedFolder(id);
        return { id };
      },

      listWatchFiles: ({ id, statuses, search, offset, limit }) => {
        const folder = this.folder(id);
        const { total, rows } = watch.page(id, { statuses, search }, offset, limit);
        const jobs = watch.jobIdsOf(rows.map((r) => r.id));
        return { total, offset, files: rows.map((r) => fileView(r, folder.path, jobs.get(r.id) ?? [])) };
      },

      approveWatchFolder: async ({ id }) => this.approve(this.folder(id)),

      reprocessWatchFile: async (args) => this.reprocess(args),

      rescanWatchFolder: ({ id }) => {
        this.folder(id);
        watch.askRescan(id);
        this.changedFolder(id);
        return this.view(this.folder(id));
      },
    };
  }

  private async approve(folder: WatchFolderRow) {
    const { watch } = this.deps;
    const now = Date.now();
    const released: WatchFileRow[] = [];
    let credits = 0;
    for (const row of watch.withStatus(folder.id, 'awaiting-approval')) {
      if (watch.update(row.id, row.rev, { status: 'ready', approved: 1, problem: null }, now)) {
        credits += row.credits ?? 0;
        const fresh = watch.file(row.id);
        if (fresh) released.push(fresh);
      }
    }
    this.deps.info({ folder: folder.path, files: released.length, credits }, 'watched files approved');
    // Queued here and now; should the watching process get to them first, it queues them instead.
    const taken = released.length ? await takeReady(this.env, folder, released) : null;
    this.changedFolder(folder.id);
    return { queued: released.length, jobIds: taken?.jobIds ?? [], credits };
  }

  private async reprocess({ id, path }: MethodArgs<'reprocessWatchFile'>): Promise<WatchFile> {
    const { watch } = this.deps;
    const folder = this.folder(id);
    const given = this.resolveIn(path);
    const row = watch.byLocation(folder.id, given);
    if (!row || row.status === 'output')
      throw new DubdeskError('not-found', `${given} is not a file of the watched folder ${folder.path}`, {
        remedy: 'List the folder’s files to see the paths.',
        field: 'path',
      });
    if ((await look(locationOf(row))).kind !== 'file')
      throw new DubdeskError('not-found', `${locationOf(row)} is no longer there`, {
        remedy: 'Put the file back in the folder; it is taken again by itself if its content is new.',
        field: 'path',
      });
    const now = Date.now();
    if (row.status === 'taken' || row.status === 'duplicate') {
      const busy = watch
        .linkedJobs([row.id])
        .find((j) => j.own === 1 && !['completed', 'failed', 'canceled'].includes(j.state));
      if (busy)
        throw new DubdeskError('conflict', `${locationOf(row)} is still being dubbed (job ${busy.job_id})`, {
          remedy: 'Wait until its jobs finish, or cancel them first.',
        });
      if (!row.hash) throw new DubdeskError('internal', `${row.path} has no recorded content`);
      if (!watch.update(row.id, row.rev, { status: 'ready', forced: 1, approved: 1, problem: null }, now))
        throw new DubdeskError('conflict', `${row.path} changed meanwhile; try again`);
      const fresh = watch.file(row.id);
      if (fresh) await takeReady(this.env, folder, [fresh]);
    } else {
      // Not queued yet: look at it again now, and queue it without waiting for approval.
      const reset = {
        status: 'settling' as const,
        forced: 1,
        approved: 1,
        attempts: 0,
        wait_since: now,
        changed_at: now - this.env.timing.settleMs,
        next_check_at: now,
        problem: null,
        hash: null,
      };
      if (!watch.update(row.id, row.rev, reset, now))
        throw new DubdeskError('conflict', `${row.path} changed meanwhile; try again`);
      await this.tryNow(folder, row.id);
    }
    this.changedFolder(folder.id);
    const after = watch.file(row.id) ?? watch.byLocation(folder.id, given);
    if (!after) throw new DubdeskError('not-found', `${given} is no longer there`);
    return this.fileOf(after, folder);
  }

  /** The settle check, hash and take of one file, here and now (a user asked; no need to wait a tick). */
  private async tryNow(folder: WatchFolderRow, fileId: number): Promise<void> {
    const row = this.deps.watch.file(fileId);
    if (!row || !(await check(this.env, folder, row))) return;
    const stable = this.deps.watch.file(fileId);
    if (!stable) return;
    await hashAndMark(this.env, folder, stable, new AbortController().signal);
    const ready = this.deps.watch.file(fileId);
    if (ready?.status === 'ready') await takeReady(this.env, folder, [ready]);
  }

  /** A path as given (absolute, or relative to the face's working directory when it has one). */
  private resolveIn(path: string): string {
    return absolutePath(path, this.deps.cwd, 'path');
  }
}

import type { WatchFileStatus, WatchPreset } from '../../../shared/contract/watch';
import type { Db } from './open';
import { StoredCounts } from './watch-store/stored-counts';
import { WatchFiles } from './watch-store/files';
import { WatchFolders } from './watch-store/folders';
import { WatchHeartbeat, type WatchBeat } from './watch-store/heartbeat';
import { WatchLinks } from './watch-store/links';
import type {
  FilePatch,
  FileRowStatus,
  FilesFilter,
  LinkedJob,
  Outcome,
  PresentRow,
  WatchFileRow,
  WatchFileViewRow,
  WatchFolderRow,
} from './watch-store/rows';
import { WatchViews } from './watch-store/views';

export {
  FILE_ROW_STATUSES,
  WatchFileRow,
  WatchFolderRow,
  type FilePatch,
  type FileRowStatus,
  type FilesFilter,
  type LinkedJob,
  type Outcome,
  type PresentRow,
  type WatchFileViewRow,
} from './watch-store/rows';

/**
 * Every query on the watch tables, one part per concern (`watch-store/`): folders, files, their links to
 * jobs, the user's views, the heartbeat. This class gives them one name; each method is documented on its
 * part.
 */
export class WatchStore {
  readonly folderRows: WatchFolders;
  readonly fileRows: WatchFiles;
  readonly links: WatchLinks;
  readonly views: WatchViews;
  readonly beat: WatchHeartbeat;
  private readonly counted: StoredCounts;

  constructor(readonly db: Db) {
    this.folderRows = new WatchFolders(db);
    this.fileRows = new WatchFiles(db);
    this.links = new WatchLinks(db);
    this.views = new WatchViews(db, this.fileRows);
    this.beat = new WatchHeartbeat(db);
    this.counted = new StoredCounts(db, this.views);
  }

  // ---- folders
  folders(): WatchFolderRow[] {
    return this.folderRows.folders();
  }
  folder(id: number): WatchFolderRow | undefined {
    return this.folderRows.folder(id);
  }
  insertFolder(path: string, preset: WatchPreset, now: number): number {
    return this.folderRows.insertFolder(path, preset, now);
  }
  updateFolder(
    id: number,
    patch: { preset?: WatchPreset; presetVersion?: number; paused?: boolean },
    now: number,
  ): void {
    this.folderRows.updateFolder(id, patch, now);
  }
  removeFolder(id: number): boolean {
    return this.folderRows.removeFolder(id);
  }
  setFolderState(id: number, s: Parameters<WatchFolders['setFolderState']>[1]): void {
    this.folderRows.setFolderState(id, s);
  }
  activity(id: number, now: number): void {
    this.folderRows.activity(id, now);
  }
  scanned(id: number, now: number): void {
    this.folderRows.scanned(id, now);
  }
  outcomesRecorded(id: number, signature: string): void {
    this.folderRows.outcomesRecorded(id, signature);
  }
  setSnapshot(id: number, name: string | null): void {
    this.folderRows.setSnapshot(id, name);
  }
  hasProblems(id: number): boolean {
    return this.folderRows.hasProblems(id);
  }
  askRescan(id: number): void {
    this.folderRows.askRescan(id);
  }

  // ---- files
  file(id: number): WatchFileRow | undefined {
    return this.fileRows.file(id);
  }
  current(folderId: number, path: string): WatchFileRow | undefined {
    return this.fileRows.current(folderId, path);
  }
  byLocation(folderId: number, path: string): WatchFileRow | undefined {
    return this.fileRows.byLocation(folderId, path);
  }
  previousVersion(folderId: number, path: string): WatchFileRow | undefined {
    return this.fileRows.previousVersion(folderId, path);
  }
  insertFile(f: Parameters<WatchFiles['insertFile']>[0]): number {
    return this.fileRows.insertFile(f);
  }
  deleteFile(id: number, rev: number): boolean {
    return this.fileRows.deleteFile(id, rev);
  }
  update(id: number, rev: number, patch: FilePatch, now: number): boolean {
    return this.fileRows.update(id, rev, patch, now);
  }
  nextCheckAt(folderId: number): number | null {
    return this.fileRows.nextCheckAt(folderId);
  }
  due(folderId: number, now: number, limit: number): WatchFileRow[] {
    return this.fileRows.due(folderId, now, limit);
  }
  withStatus(folderId: number, status: FileRowStatus, limit?: number): WatchFileRow[] {
    return this.fileRows.withStatus(folderId, status, limit);
  }
  recheckSettling(folderId: number, now: number): void {
    this.fileRows.recheckSettling(folderId, now);
  }
  hasStatus(folderId: number, status: FileRowStatus): boolean {
    return this.fileRows.hasStatus(folderId, status);
  }
  sameContent(folderId: number, hash: string, presetVersion: number, exceptId: number): WatchFileRow[] {
    return this.fileRows.sameContent(folderId, hash, presetVersion, exceptId);
  }
  present(folderId: number): PresentRow[] {
    return this.fileRows.present(folderId);
  }
  toolStamped(folderId: number): string[] {
    return this.fileRows.toolStamped(folderId);
  }
  setGone(ids: readonly number[], gone: boolean): void {
    this.fileRows.setGone(ids, gone);
  }
  isOwnOutput(path: string): boolean {
    return this.fileRows.isOwnOutput(path);
  }

  // ---- links to jobs
  link(fileId: number, jobId: number, own: boolean): void {
    this.links.link(fileId, jobId, own);
  }
  unlinkAll(fileId: number): void {
    this.links.unlinkAll(fileId);
  }
  linkedJobs(fileIds: readonly number[]): LinkedJob[] {
    return this.links.linkedJobs(fileIds);
  }
  jobIdsOf(fileIds: readonly number[]): Map<number, number[]> {
    return this.links.jobIdsOf(fileIds);
  }
  creditsSince(folderId: number, since: number): number {
    return this.links.creditsSince(folderId, since);
  }
  awaiting(folderId: number): { files: number; credits: number; unknownLength: number } {
    return this.links.awaiting(folderId);
  }
  jobSignature(folderId: number): string {
    return this.links.jobSignature(folderId);
  }

  // ---- views
  page(
    folderId: number,
    filter: FilesFilter,
    offset: number,
    limit: number,
  ): { total: number; rows: WatchFileViewRow[] } {
    return this.views.page(folderId, filter, offset, limit);
  }
  view(fileId: number): WatchFileViewRow | undefined {
    return this.views.view(fileId);
  }
  counts(folderId: number): Record<WatchFileStatus, number> {
    return this.counted.get(folderId);
  }
  settled(folderId: number): (WatchFileRow & { now_outcome: Outcome })[] {
    return this.views.settled(folderId);
  }

  // ---- heartbeat
  heartbeat(owner: string, now: number): void {
    this.beat.heartbeat(owner, now);
  }
  dropHeartbeat(owner: string): void {
    this.beat.dropHeartbeat(owner);
  }
  lastBeat(): WatchBeat | null {
    return this.beat.lastBeat();
  }
  lastHeartbeat(): number {
    return this.beat.lastHeartbeat();
  }
}

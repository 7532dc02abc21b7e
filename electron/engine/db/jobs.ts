import type { JobFilter, JobState } from '../../../shared/contract/jobs';
import { JobAging } from './job-store/aging';
import { JobHistory } from './job-store/history';
import { JobLeases } from './job-store/leases';
import { JobLists } from './job-store/lists';
import { JobOutputs } from './job-store/outputs';
import { JobReads, type DubOfContent } from './job-store/reads';
import { SameContent } from './job-store/same-content';
import { ContentHashes } from './content-hashes';
import { OwnResults } from './own-results';
import type {
  AnyPatch,
  HistoryRow,
  JobRow,
  NewJob,
  OutputRow,
  RecordPatch,
  WriteGuard,
} from './job-store/rows';
import { SettingsTable } from './job-store/settings';
import { JobWrites } from './job-store/writes';
import type { ChangeFeed } from './changes';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

export {
  CREATE_ANSWERED,
  CREATE_SENT,
  HistoryRow,
  JobRow,
  LeaseLostError,
  LIFE_COLUMNS,
  NOT_WORKABLE,
  OutputRow,
  type AnyPatch,
  type NewJob,
  type RecordPatch,
  type WriteGuard,
} from './job-store/rows';
export { INSERT_ROWS } from './job-store/writes';

/**
 * Every query on the job tables, one part per concern (`job-store/`): reads, lists, leases, writes,
 * outputs, history, app settings, transactions. This class only gives them one name, so callers keep a
 * single `store`; each method is documented on its part. State changes go through `jobs/life.ts`.
 */
export class JobStore {
  readonly reads: JobReads;
  readonly lists: JobLists;
  readonly leases: JobLeases;
  readonly writes: JobWrites;
  readonly jobOutputs: JobOutputs;
  readonly jobHistory: JobHistory;
  readonly settings: SettingsTable;
  readonly transactions: Transactions;
  readonly aging: JobAging;
  readonly sameContent: SameContent;
  /** What each file is (its SHA-256), kept by path, size and modification time. */
  readonly hashes: ContentHashes;
  /** Dubdesk's own results, by file id and by content. */
  readonly results: OwnResults;

  constructor(readonly db: Db) {
    this.transactions = transactionsOf(db);
    this.reads = new JobReads(db);
    this.lists = new JobLists(db);
    this.leases = new JobLeases(db, this.reads);
    this.writes = new JobWrites(db);
    this.jobOutputs = new JobOutputs(db);
    this.jobHistory = new JobHistory(db);
    this.settings = new SettingsTable(db);
    this.aging = new JobAging(db);
    this.sameContent = new SameContent(db);
    this.hashes = new ContentHashes(db);
    this.results = new OwnResults(db, this.hashes);
  }

  /** Every commit on this database, told once it committed: by this process, or by another one. */
  get changes(): ChangeFeed {
    return this.transactions.feed;
  }

  // ---- transactions
  tx<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    return this.transactions.tx(fn, ...args);
  }
  read<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    return this.transactions.read(fn, ...args);
  }

  // ---- reads
  get(id: number): JobRow | undefined {
    return this.reads.get(id);
  }
  shown(id: number): JobRow | undefined {
    return this.reads.shown(id);
  }
  live(source: string, destLang: string): JobRow | undefined {
    return this.reads.live(source, destLang);
  }
  completed(source: string, destLang: string): JobRow[] {
    return this.reads.completed(source, destLang);
  }
  liveOf(sources: readonly string[]): JobRow[] {
    return this.reads.liveOf(sources);
  }
  completedOf(sources: readonly string[]): JobRow[] {
    return this.reads.completedOf(sources);
  }
  completedOfHashes(hashes: readonly string[]): JobRow[] {
    return this.reads.completedOfHashes(hashes);
  }
  carriersOfHashes(hashes: readonly string[]): DubOfContent[] {
    return this.reads.carriersOfHashes(hashes);
  }
  sameSource(row: Pick<JobRow, 'id' | 'source'>): JobRow[] {
    return this.reads.sameSource(row);
  }
  remoteIdsOwnedByOthers(id: number): Set<string> {
    return this.reads.remoteIdsOwnedByOthers(id);
  }

  // ---- lists
  page(filter: JobFilter, offset: number, limit: number): { total: number; rows: JobRow[] } {
    return this.lists.page(filter, offset, limit);
  }
  sourcesPage(
    filter: JobFilter,
    offset: number,
    limit: number,
  ): { total: number; groups: { source: string; rows: JobRow[] }[] } {
    return this.lists.sourcesPage(filter, offset, limit);
  }
  select(filter: JobFilter): number[] {
    return this.lists.select(filter);
  }
  historyCount(): number {
    return this.lists.historyCount();
  }
  countsByState(): Partial<Record<JobState, number>> {
    return this.lists.countsByState();
  }
  creditSums(): { committed: number; charged: number } {
    return this.lists.creditSums();
  }

  // ---- leases
  claim(
    step: 'submit' | 'fetch',
    limit: number,
    service: string,
    busy?: (id: number) => boolean,
    now?: number,
    offLinkLimit?: number,
  ): { row: JobRow; token: string; offLink: boolean }[] {
    return this.leases.claim(step, limit, service, busy, now, offLinkLimit);
  }
  holds(id: number, token: string): boolean {
    return this.leases.holds(id, token);
  }
  release(id: number, token: string): void {
    this.leases.release(id, token);
  }
  revoke(id: number): void {
    this.leases.revoke(id);
  }
  pauseRequested(id: number): boolean {
    return this.leases.pauseRequested(id);
  }
  resetLeases(): number {
    return this.leases.resetLeases();
  }
  leasedCount(): number {
    return this.leases.leasedCount();
  }
  tracking(service: string): JobRow[] {
    return this.leases.tracking(service);
  }
  trackingCount(service: string): number {
    return this.leases.trackingCount(service);
  }
  /** Canceled or paused jobs whose dub the service started and may still charge: followed until it ends. */
  followed(service: string): JobRow[] {
    return this.leases.followed(service);
  }
  followedCount(service: string): number {
    return this.leases.followedCount(service);
  }
  liveInStep(step: 'submit' | 'fetch', service: string): number {
    return this.leases.liveInStep(step, service);
  }
  unfinishedCount(service: string): number {
    return this.leases.unfinishedCount(service);
  }
  nextDueAt(service: string, step?: 'submit' | 'fetch'): number | null {
    return this.leases.nextDueAt(service, step);
  }

  // ---- writes
  insert(job: NewJob, now: number): number {
    return this.writes.insert(job, now);
  }
  insertUnlessLive(job: NewJob, now: number): number | null {
    return this.writes.insertUnlessLive(job, now);
  }
  insertManyUnlessLive(jobs: readonly NewJob[], now: number): (number | null)[] {
    return this.writes.insertManyUnlessLive(jobs, now);
  }
  wakeFirstUploadWaiters(source: string): void {
    this.writes.wakeFirstUploadWaiters(source);
  }
  record(id: number, guard: WriteGuard, patch: RecordPatch, now?: number): void {
    this.writes.record(id, guard, patch, now);
  }
  write(id: number, guard: WriteGuard, patch: AnyPatch, now: number, after?: JobRow): void {
    this.writes.write(id, guard, patch, now, after);
  }
  remove(ids: readonly number[], now?: number): number[] {
    return this.writes.remove(ids, now);
  }

  // ---- outputs
  outputs(jobId: number): OutputRow[] {
    return this.jobOutputs.outputs(jobId);
  }
  outputsOf(ids: readonly number[]): Map<number, OutputRow[]> {
    return this.jobOutputs.outputsOf(ids);
  }
  recordedOutputs(paths: readonly string[]): Set<string> {
    return this.jobOutputs.recordedOutputs(paths);
  }
  putOutput(row: OutputRow): void {
    this.jobOutputs.putOutput(row);
  }
  putOutputs(rows: readonly OutputRow[]): void {
    this.jobOutputs.putOutputs(rows);
  }
  clearPendingOutputs(jobId: number): void {
    this.jobOutputs.clearPendingOutputs(jobId);
  }

  // ---- history
  appendHistory(
    id: number,
    at: number,
    from: JobState | null,
    to: JobState,
    event: string,
    reason: string | null,
    notify?: boolean,
  ): void {
    this.jobHistory.appendHistory(id, at, from, to, event, reason, notify);
  }
  appendHistoryMany(
    ids: readonly number[],
    at: number,
    from: JobState | null,
    to: JobState,
    event: string,
    reason: string | null,
    notify?: boolean,
  ): void {
    this.jobHistory.appendHistoryMany(ids, at, from, to, event, reason, notify);
  }
  history(id: number): HistoryRow[] {
    return this.jobHistory.history(id);
  }

  // ---- app settings
  setting(key: string): string | undefined {
    return this.settings.setting(key);
  }
  setSetting(key: string, value: string | null): void {
    this.settings.setSetting(key, value);
  }
}

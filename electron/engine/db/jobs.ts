import { JobAging } from './job-store/aging';
import { JobCharges } from './job-store/charges';
import { JobOrder } from './job-store/order';
import { PresetTable } from './presets';
import { JobHistory } from './job-store/history';
import { JobLeases } from './job-store/leases';
import { JobLists } from './job-store/lists';
import { JobOutputs } from './job-store/outputs';
import { Packages } from './job-store/packages';
import { JobQc } from './job-store/qc';
import { JobReads } from './job-store/reads';
import { SameContent } from './job-store/same-content';
import { StagedAudio } from './job-store/staged-audio';
import { CanceledCreates } from './canceled-creates';
import { ChargeLedger } from './charge-ledger';
import { ContentHashes } from './content-hashes';
import { OwnResults } from './own-results';
import { ResultsJournal } from './results-journal';
import { RestoredDubs } from './restored-dubs';
import { SettingsTable } from './job-store/settings';
import { JobWrites } from './job-store/writes';
import type { ChangeFeed } from './changes';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';
import { checkpointsOf, type WalCheckpoints } from './wal-checkpoints';
import { searchMergesOf, type SearchMerges } from './search-merges';

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
export { INSERT_ROWS, type Placing } from './job-store/writes';

/**
 * Every query on the job tables, one part per concern (`job-store/`), each found by its name: `reads`,
 * `lists`, `leases`, `writes`, `outputs`, `history`, `settings`, `aging`, `sameContent`, `hashes`,
 * `results`, `ledger`, `canceledCreates`, `restored`, `stagedAudio`, `qc`, `packages`, `order`, `charges`,
 * `presets`. Every write runs in a transaction of the connection's (`tx`), and the change feed (`changes`)
 * hears each commit. State changes go through `jobs/life.ts`.
 */
export class JobStore {
  readonly reads: JobReads;
  readonly lists: JobLists;
  readonly leases: JobLeases;
  readonly writes: JobWrites;
  readonly outputs: JobOutputs;
  readonly history: JobHistory;
  readonly settings: SettingsTable;
  readonly aging: JobAging;
  /** The queue's order, which users change. */
  readonly order: JobOrder;
  /** What the service charged, job by job; batches. */
  readonly charges: JobCharges;
  /** Named sets of add's options, shared by every face. */
  readonly presets: PresetTable;
  readonly sameContent: SameContent;
  /** What each file is (its SHA-256), kept by path, size and modification time. */
  readonly hashes: ContentHashes;
  /** Dubdesk's own results, by file id and by content. */
  readonly results: OwnResults;
  /** The credits recorded as charged, per service, and the dubs the service may charge unseen. */
  readonly ledger: ChargeLedger;
  /** Canceled jobs whose create was under way: the service may have made their dub. */
  readonly canceledCreates: CanceledCreates;
  /** After `restore-db`: whether the service is still to be asked, and the dubs it listed that no job owns. */
  readonly restored: RestoredDubs;
  /** The audio path's staged sounds, and which jobs still need them. */
  readonly stagedAudio: StagedAudio;
  /** Each finished dub's QC and SubRip file (what is handed on). */
  readonly qc: JobQc;
  /** Each source's package of every language (what is handed on). */
  readonly packages: Packages;
  /** The WAL's checkpoints, which a long run of writes takes out of its commits. */
  readonly checkpoints: WalCheckpoints;
  /** The search index's merges, which a long run of writes takes out of its statements. */
  readonly searchMerges: SearchMerges;
  private readonly transactions: Transactions;

  constructor(db: Db) {
    this.transactions = transactionsOf(db);
    this.reads = new JobReads(db);
    this.lists = new JobLists(db);
    this.leases = new JobLeases(db, this.reads);
    this.writes = new JobWrites(db);
    this.outputs = new JobOutputs(db);
    this.history = new JobHistory(db);
    this.settings = new SettingsTable(db);
    this.aging = new JobAging(db);
    this.sameContent = new SameContent(db);
    this.hashes = new ContentHashes(db);
    this.results = new OwnResults(db, this.hashes, ResultsJournal.besideDatabase(db.name));
    this.ledger = new ChargeLedger(db);
    this.canceledCreates = new CanceledCreates(db);
    this.restored = new RestoredDubs(db);
    this.stagedAudio = new StagedAudio(db);
    this.packages = new Packages(db);
    this.checkpoints = checkpointsOf(db);
    this.searchMerges = searchMergesOf(db);
    this.qc = new JobQc(db, this.packages);
    this.order = new JobOrder(db);
    this.charges = new JobCharges(db);
    this.presets = new PresetTable(db);
  }

  /** Every commit on this database, told once it committed: by this process, or by another one. */
  get changes(): ChangeFeed {
    return this.transactions.feed;
  }

  /** `fn` in one write transaction (IMMEDIATE; nested: a savepoint); its changes are told once it committed. */
  tx<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    return this.transactions.tx(fn, ...args);
  }

  /** `fn` in the transaction under way (no savepoint), or in one of its own. */
  write<R>(fn: () => R): R {
    return this.transactions.write(fn);
  }

  /** Reads in one (deferred) transaction: one lock on the shared index, not one per statement. */
  read<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    return this.transactions.read(fn, ...args);
  }
}

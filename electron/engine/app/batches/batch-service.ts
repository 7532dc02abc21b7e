import type { AddResult, Estimate } from '../../../../shared/contract/batches';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { DubdeskHandlers, MethodArgs } from '../../../../shared/contract/methods';
import type { WatchPreset } from '../../../../shared/contract/watch';
import type { FileSeen } from '../../db/content-hashes';
import type { JobStore, NewJob } from '../../db/jobs';
import type { PlannedFiles } from '../../watcher/env';
import { outRootOf } from '../../watcher/env';
import type { AccountService } from '../account/account-service';
import { ensureService, legacyNeedsUrl } from '../contract-error';
import type { ServiceConnection } from '../dubbing-service';
import { rememberBatch } from '../settings/app-settings';
import { creditsOf, sortAgainstQueue, toBePaid } from './against-queue';
import { againRequest, jobToDubAgain, mergedResults, uniqueBy } from './again';
import { refuseResultCopies } from './result-copies';
import { checkDelivery, checkLanguages, checkOutputFolder, checkOutputFolders } from './checks';
import { mediaTools } from '../../../media-tools/locate';
import { enqueueBatch } from './enqueue';
import { withShares } from './file-shares';
import { planBatch } from './plan';
import { sendTotals } from './send-plan';
import { uploadOnceSavings } from './upload-once';
import { relocateJobs } from '../queue/relocate';
import type { Spending } from '../../../../shared/contract/spending';
import { budgetCheck, pastBudgetBy, refuseOverBudget } from './budget';
import { eachInSlices, TimeSlices } from '../time-slices';

export interface BatchDeps {
  store: JobStore;
  services: ServiceConnection;
  account: AccountService;
  /** Where relative paths start: the CLI's working folder; null for a face that has none. */
  cwd: string | null;
  info(fields: Record<string, unknown>, message: string): void;
  /** The monthly budget as it stands (null: none). */
  budget(): Spending['budget'];
}

type BatchHandlers = Pick<DubdeskHandlers, 'estimate' | 'add' | 'estimateAgain' | 'dubAgain'>;

/** Files read and hashed at once: small ones are a few trips to the thread pool each, large ones share the disk. */
const HASHES_AT_ONCE = 8;

/**
 * A batch does not fit when the service's balance cannot pay for what the queue has committed (queued, not
 * yet charged; copies and completed jobs commit nothing) and the batch. An unknown balance refuses nothing.
 */
function overBalance(balance: number | null, committed: number, credits: number): boolean {
  return balance !== null && (balance <= 0 || committed + credits > balance);
}

/** A batch: sources times languages, what it would cost against the balance, and queueing it. */
export class BatchService {
  constructor(private readonly deps: BatchDeps) {}

  /**
   * Each file's content, the source's identity (read once per path, size and modification time: probing
   * hashed the files it read whole), a few files at a time.
   */
  private async identify(jobs: NewJob[], slices = new TimeSlices()): Promise<void> {
    const files = new Map<string, FileSeen>();
    await eachInSlices(jobs, slices, (job) => {
      if (job.source_kind === 'file' && job.source_bytes !== null && job.source_mtime !== null)
        if (!files.has(job.source))
          files.set(job.source, {
            path: job.source,
            size: job.source_bytes,
            mtimeMs: job.source_mtime,
            read: job.source_hash ?? null,
          });
    });
    const hashes = await this.deps.store.hashes.ofMany([...files.values()], HASHES_AT_ONCE);
    await eachInSlices(jobs, slices, (job) => {
      if (job.source_kind === 'file' && job.source_bytes !== null && job.source_mtime !== null)
        job.source_hash = hashes.get(job.source) ?? null;
    });
  }

  private serviceId(): string {
    return this.deps.services.current()?.id ?? this.deps.services.serviceId();
  }

  /**
   * `create`: the output folders are made now (adding), not only checked (estimating). `slices`: the
   * batch's, shared by every step, so that one slice counts what the step before it ran in its turn.
   */
  private async planned(args: MethodArgs<'estimate'>, slices: TimeSlices, create = false, again = false) {
    const active = await ensureService(this.deps.services);
    if (args.api === 'legacy' && !active.legacyUrl) throw legacyNeedsUrl();
    checkLanguages(args, (await this.deps.account.liveCodes()).codes);
    // A job dubbed again keeps its package's default sound: another language of its source, not of this batch.
    const delivery = again ? { ...args, defaultAudio: 'original' } : args;
    checkDelivery(delivery, args.package === 'none' ? null : (await mediaTools()).tools !== null);
    const planned = await planBatch(args, {
      service: active.id,
      cwd: this.deps.cwd,
      ownOutputs: (paths) =>
        new Set([...this.deps.store.outputs.recorded(paths), ...this.deps.store.results.savedAmong(paths)]),
      slices,
    });
    await checkOutputFolders(planned.jobs, args.outDir !== undefined, create);
    await this.identify(planned.jobs, slices);
    if (!again) await refuseResultCopies(this.deps.store, planned, slices);
    return planned;
  }

  /** A watched folder's new files, planned with its preset. */
  async planForFolder(
    paths: readonly string[],
    preset: WatchPreset,
    folderId: number,
  ): Promise<PlannedFiles> {
    const planned = await planBatch(
      {
        inputs: [...paths],
        to: preset.to,
        from: preset.from,
        studio: preset.studio,
        api: preset.api,
        outputs: preset.outputs,
        naming: preset.naming,
        uploadOnce: preset.uploadOnce,
        package: preset.package,
        subtitles: preset.subtitles,
        defaultAudio: preset.defaultAudio,
        loudness: preset.loudness,
        audioTrack: preset.audioTrack,
        ...(preset.send ? { send: preset.send } : {}),
      },
      {
        service: this.serviceId(),
        cwd: null, // a watched file's path and the preset's folder are absolute already
        watchFolderId: folderId,
        // Settled before it is planned: a file that does not say its length waits for approval instead.
        lengthUnknown: 'allow',
      },
    );
    await this.identify(planned.jobs);
    return { jobs: planned.jobs, refused: planned.refused };
  }

  /** Checks a folder's preset can be used (languages, generation, output folder); throws a contract error. */
  async checkPreset(preset: WatchPreset, folder: string): Promise<void> {
    const { services } = this.deps;
    if (preset.api === 'legacy' && services.mode() === 'service' && !services.describe().legacyUrl)
      throw legacyNeedsUrl();
    checkLanguages(preset, (await this.deps.account.liveCodes()).codes);
    await checkOutputFolder(outRootOf({ path: folder, preset }), 'preset.outDir');
  }

  handlers(): BatchHandlers {
    return {
      estimate: (args) => this.estimate(args),
      add: (args) => this.add(args),
      // Engine-side, from the job's row: a face never rebuilds the request (and forgets a choice).
      estimateAgain: ({ id }) => this.estimate(againRequest(jobToDubAgain(this.deps.store, id)), true),
      dubAgain: async ({ ids, outDir, force }) => {
        // Two jobs of one source, language and folder (a dub and its earlier redo) are one dub again.
        const rows = uniqueBy(
          ids.map((id) => jobToDubAgain(this.deps.store, id)),
          (r) => `${r.source}\u0000${r.dest_lang}\u0000${outDir ?? r.out_dir}`,
        );
        const results: AddResult[] = [];
        for (const row of rows) results.push(await this.add({ ...againRequest(row, outDir), force }));
        return mergedResults(results);
      },
    };
  }

  /** `again`: what it costs to dub it all once more (nothing counts as already dubbed). */
  private async estimate(args: MethodArgs<'estimate'>, again = false): Promise<Estimate> {
    const { store, account } = this.deps;
    const slices = new TimeSlices();
    const planned = await this.planned(args, slices, false, again);
    const sorted = await sortAgainstQueue(store, planned.jobs, again, slices);
    const queued = [...sorted.fresh, ...sorted.failed.map((f) => f.job)];
    const paid = toBePaid(sorted);
    const { credits, unknown } = creditsOf(paid);
    const balance = await account.balanceOrNull();
    const committed = account.committedNow();
    return {
      files: withShares(planned.files, sorted, paid),
      languages: args.to,
      studio: args.studio,
      jobs: queued.length,
      credits,
      unknownLengthJobs: unknown,
      balance,
      balanceAfter: balance === null ? null : balance - committed - credits,
      overBalance: queued.length > 0 && overBalance(balance, committed, credits),
      ...budgetCheck(this.deps.budget(), queued.length > 0 ? credits : 0),
      alreadyDone: sorted.done,
      alreadyQueued: sorted.queued,
      uploadOnce: uploadOnceSavings(
        store,
        queued,
        (j) => planned.sends.bySource.get(j.source)?.bytes ?? j.source_bytes ?? 0,
      ),
      sends: sendTotals(store, queued, planned.sends, args),
    };
  }

  private async add(args: MethodArgs<'add'>): Promise<AddResult> {
    const { store, account } = this.deps;
    const slices = new TimeSlices();
    const planned = await this.planned(args, slices, true, args.again);
    const sorted = await sortAgainstQueue(store, planned.jobs, args.again, slices);
    const queued = [...sorted.fresh, ...sorted.failed.map((f) => f.job)];
    const { credits, unknown } = creditsOf(toBePaid(sorted));
    const balance = queued.length ? await account.balanceOrNull() : account.balance.value;
    // What the queue already holds is charged before this batch: the Add sheet and the CLI count it too.
    const committed = account.committedNow();
    if (queued.length && !args.force && overBalance(balance, committed, credits))
      throw new DubdeskError(
        'credits',
        `this batch needs about ${credits} credits (1 credit = 1 second${args.studio ? ', studio quality counts double' : ''})${committed ? `, with ${committed} already queued and not yet charged` : ''}; the balance is ${balance}`,
        { remedy: 'Add credits, dub fewer files or languages, or add it anyway.' },
      );
    const budget = this.deps.budget();
    if (queued.length && !args.force) refuseOverBudget(budget, credits);
    // A failed job added again into another folder takes the results it saved along: never split.
    await relocateJobs(
      store,
      sorted.failed.map((f) => ({ id: f.id, outDir: f.job.out_dir })),
    );
    const { added, retried, queuedMeanwhile } = await enqueueBatch(store, sorted, args.again, slices);
    if (added.length) rememberBatch(store, args.to);
    this.deps.info({ added: added.length, retried: retried.length, credits }, 'batch added');
    return {
      added,
      alreadyQueued: [...sorted.queued, ...queuedMeanwhile],
      retried,
      alreadyDone: sorted.done,
      refused: planned.refused,
      credits,
      unknownLengthJobs: unknown,
      balance,
      notice: queued.length ? planned.sends.notice : null,
      pastBudgetBy: queued.length ? pastBudgetBy(budget, credits) : 0,
    };
  }
}

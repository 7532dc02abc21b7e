import { DubdeskError } from '../../../../shared/contract/errors';
import type { ActionResult, SourceRow } from '../../../../shared/contract/jobs';
import type { DubdeskHandlers, MethodArgs } from '../../../../shared/contract/methods';
import type { JobRow, JobStore } from '../../db/jobs';
import { judgeQcAgain } from './judge-qc';
import { packageNow, sourcePackage } from './packages';
import type { EngineLog } from '../../log/log';
import { checkOutputFolder } from '../batches/checks';
import { absolutePath } from '../paths';
import { applyAction, type Action } from './actions';
import { moveCompletedResults, relocateJobs } from './relocate';
import type { JobViews } from './job-views';
import { sourceRow } from './source-rows';
import { toDetail } from './views';

export interface QueueDeps {
  store: JobStore;
  views: JobViews;
  log: Pick<EngineLog, 'jobLines' | 'logger'>;
  /** Stops the transfer of a job this process works. */
  abortJob(id: number): void;
}

type QueueHandlers = Pick<
  DubdeskHandlers,
  | 'listJobs'
  | 'listSources'
  | 'getJob'
  | 'jobLog'
  | 'retryJobs'
  | 'cancelJobs'
  | 'pauseJobs'
  | 'resumeJobs'
  | 'clearJobs'
  | 'packageNow'
  | 'judgeQc'
>;

/** The queue's jobs: listed, by source, one in detail with its log, and the user's actions on them. */
export class QueueService {
  constructor(private readonly deps: QueueDeps) {}

  /** A job in the queue's list, or why there is none ("already dubbed: job #N" may name a cleared one). */
  private shownJob(id: number): JobRow {
    const row = this.deps.store.reads.shown(id);
    if (row) return row;
    if (this.deps.store.reads.get(id))
      throw new DubdeskError('not-found', `job ${id} was cleared from the list`, {
        remedy: 'Its files stay where they were written; add its source with --again to dub it again.',
      });
    throw new DubdeskError('not-found', `no job ${id}`, { remedy: 'List the queue to see the job numbers.' });
  }

  /**
   * Retry into another folder: the jobs' saved results move there first (see relocateJobs), then failed
   * and canceled jobs are retried. A completed job is not dubbed again: its results move there, at no
   * charge (`moved`), or, gone from disk, it is skipped with the way to dub it again.
   */
  private async retryInto(sel: MethodArgs<'retryJobs'>, raw: string): Promise<ActionResult> {
    const { store } = this.deps;
    const outDir = absolutePath(raw, null, 'outDir');
    const ids = sel.ids ?? store.lists.select(sel.filter ?? {});
    const completed = ids.filter((id) => store.reads.get(id)?.state === 'completed');
    const done = await moveCompletedResults(store, completed, outDir);
    const rest = ids.filter((id) => !completed.includes(id));
    // Only failed and canceled jobs are retried: a retry that will be refused leaves the disk as it was.
    const retried = rest.filter((id) => {
      const state = store.reads.get(id)?.state;
      return state === 'failed' || state === 'canceled';
    });
    if (retried.length) await checkOutputFolder(outDir, 'outDir', true);
    const relocated = await relocateJobs(
      store,
      retried.map((id) => ({ id, outDir })),
    );
    if (relocated.length + done.moved.length)
      this.deps.log.logger.info(
        { jobs: relocated.length + done.moved.length },
        'user: results moved to another folder',
      );
    const result = rest.length ? this.act('retry', { ids: rest }) : { changed: [], skipped: [] };
    return { ...result, skipped: [...result.skipped, ...done.skipped], moved: done.moved };
  }

  private act(action: Action, sel: MethodArgs<'retryJobs'>) {
    const { store } = this.deps;
    const ids = sel.ids ?? store.lists.select(sel.filter ?? {});
    const startedAtService: number[] = [];
    const result = applyAction(store, ids, action, (row) => {
      if (action === 'cancel') {
        this.deps.abortJob(row.id);
        // The ones the poller follows until their dub ends (see `followed` in the job store).
        const ended = row.remote_status === 4 || row.remote_status === 5;
        const started = row.step === 'track' && row.remote_id !== null && row.credits_charged === null;
        // A create (or start) under way: the service may have made the dub already (it is found out).
        const underWay = row.step === 'submit' && row.create_pending !== 0;
        if ((started && !ended) || underWay) startedAtService.push(row.id);
      }
    });
    if (result.changed.length)
      this.deps.log.logger.info({ action, jobs: result.changed.length }, `user: ${action}`);
    return {
      changed: result.changed,
      skipped: result.skipped,
      ...(action === 'cancel' ? { startedAtService } : {}),
    };
  }

  handlers(): QueueHandlers {
    const { store, views } = this.deps;
    return {
      listJobs: ({ filter, offset, limit, order }) => {
        const { total, rows } = store.lists.page(filter, offset, limit, order);
        return { total, offset, jobs: views.views(rows) };
      },
      listSources: ({ filter, offset, limit }) => {
        const { total, groups } = store.lists.sourcesPage(filter, offset, limit);
        const byId = new Map(views.views(groups.flatMap((g) => g.rows)).map((v) => [v.id, v]));
        const sources: SourceRow[] = groups.map((g) => ({
          ...sourceRow(g.source, g.rows, byId),
          package: sourcePackage(store, g.source),
        }));
        return { total, offset, sources };
      },
      packageNow: (req) => {
        // Its commit is heard: the worker looks, the faces show the source's row waiting.
        const view = packageNow(store, req);
        this.deps.log.logger.info({ source: req.source }, 'user: package now');
        return view;
      },
      judgeQc: (req) => {
        const result = judgeQcAgain(store, req);
        if (result.changed.length)
          this.deps.log.logger.info(
            { jobs: result.changed.length, loudness: req.loudness },
            'user: QC judged again',
          );
        return result;
      },
      getJob: ({ id }) => {
        const row = this.shownJob(id);
        return toDetail(views.view(row), row, store.history.of(id));
      },
      jobLog: ({ id, limit }) => {
        const row = this.shownJob(id);
        return { lines: this.deps.log.jobLines(id, limit, row.created_at) };
      },
      retryJobs: async (sel) => {
        if (sel.outDir !== undefined) return this.retryInto(sel, sel.outDir);
        return this.act('retry', sel);
      },
      cancelJobs: (sel) => this.act('cancel', sel),
      pauseJobs: (sel) => this.act('pause', sel),
      resumeJobs: (sel) => this.act('resume', sel),
      clearJobs: (sel) => this.act('clear', sel),
    };
  }
}

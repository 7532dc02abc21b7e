import type { JobRow, JobStore, RecordPatch } from '../db/jobs';
import type { Downloads } from '../api/download';
import type { LegacyClient } from '../api/legacy';
import type { V1Client } from '../api/v1';
import type { V2Client } from '../api/v2';
import type { SeenDubs } from './seen-dubs';
import { StopAtStep } from '../jobs/errors';
import { transition, type LifeEvent } from '../jobs/life';

export interface Clients {
  v2: V2Client;
  v1: V1Client;
  /** Null when no legacy root is configured. */
  legacy: LegacyClient | null;
  /** Output links: no key, redirects followed. */
  downloads: Downloads;
}

/**
 * A job a worker holds under its claim token: its life moves only through events (`apply`), what a step
 * learned is recorded with `record`, and `checkpoint` between two HTTP calls stops the step cleanly when the
 * user paused the job or the run is stopping.
 */
export class LeasedJob {
  constructor(
    readonly store: JobStore,
    public row: JobRow,
    readonly token: string,
    private readonly stopping: () => boolean,
    /** What the worker does when the step succeeded (take a pause asked meanwhile, give the claim back). */
    private readonly finish: (job: LeasedJob) => void,
  ) {}

  /** True once `end` committed: the claim is given back already. */
  ended = false;

  /** `also` is written in the same transaction as the change (it is rolled back with it). */
  apply(event: LifeEvent, also?: () => void): void {
    this.row = transition(this.store, this.row.id, { token: this.token }, event, Date.now(), also);
  }

  /**
   * The step's last change, for events that take the job out of the step (no claim can take it back at once):
   * applied, and the worker's finish (a pause asked meanwhile, the claim given back) in the same commit.
   */
  end(event: LifeEvent & { type: 'created' | 'downloaded' | 'copied' }, also?: () => void): void {
    this.store.tx(LeasedJob.ending, this, event, also);
    this.ended = true;
  }

  private static ending(job: LeasedJob, event: LifeEvent, also: (() => void) | undefined): void {
    job.apply(event, also);
    job.finish(job);
  }

  record(patch: RecordPatch): void {
    this.store.writes.record(this.row.id, { token: this.token }, patch);
    this.row = { ...this.row, ...patch };
  }

  /** Between two HTTP steps: stop here if asked to (the step in progress is never cut). */
  checkpoint(): void {
    const why = this.store.read(LeasedJob.stopAsked, this);
    if (why) throw new StopAtStep(why);
  }

  /** `checkpoint`, then `apply`, in one transaction: a stop asked writes nothing. */
  applyUnlessStopped(event: LifeEvent): void {
    this.store.tx(LeasedJob.checkedApply, this, event);
  }

  /** `checkpoint`, then `record`, in one transaction: a stop asked writes nothing. */
  recordUnlessStopped(patch: RecordPatch): void {
    this.store.tx(LeasedJob.checkedRecord, this, patch);
  }

  private static checkedApply(job: LeasedJob, event: LifeEvent): void {
    job.checkpoint();
    job.apply(event);
  }

  private static checkedRecord(job: LeasedJob, patch: RecordPatch): void {
    job.checkpoint();
    job.record(patch);
  }

  /** The run stopping or the queue paused (the runner's view), or this job paused: read in one transaction. */
  private static stopAsked(job: LeasedJob): 'stop' | 'pause' | null {
    if (job.stopping()) return 'stop';
    return job.store.leases.pauseRequested(job.row.id) ? 'pause' : null;
  }
}

export interface StepContext {
  store: JobStore;
  clients: Clients;
  signal: AbortSignal;
  /** Aborted on the first Ctrl+C (a stop that lets HTTP calls finish): transfers that resume stop at once. */
  drain?: AbortSignal | undefined;
  /** Completed dubs the last poll saw, with fresh links. */
  seen?: SeenDubs;
  /** `<home>/staging/.audio-path`: the extracted and dubbed sounds, until their jobs no longer need them. */
  stagingDir: string;
  /** Transfer progress of the current upload or download, for speed and ETA. */
  progress: (jobId: number, transferred: number, total: number | null) => void;
}

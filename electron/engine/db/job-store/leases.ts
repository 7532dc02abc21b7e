import { randomUUID } from 'node:crypto';
import { MAX_CONCURRENCY } from '../../../../shared/contract/settings';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { dueQuery, nextDueQuery, offLinkDueQuery, windowEndQuery } from './due';
import type { JobReads } from './reads';
import { parseJobRow } from './row-cells';
import { FINISHED, JobRow, NOT_WORKABLE } from './rows';

type Step = 'submit' | 'fetch';
/** A due job, and whether its step sends nothing over the user's link (1) or does (0). */
type Due = { id: number; off_link: number };

/**
 * Canceled or paused jobs whose dub the service had started: it cannot be stopped or paused there and is
 * charged if it completes, so it is followed (in the list polls the live jobs need anyway) until it ends.
 * Through the `jobs_track` index: canceled and paused jobs keep their step.
 */
export const FOLLOWED = `step = 'track' AND state IN ('canceled', 'paused') AND remote_id IS NOT NULL AND credits_charged IS NULL
  AND coalesce(remote_status, 0) NOT IN (4, 5)`;

/** Who works which job: claims under tokens, their release, and what the runner asks about the queue. */
export class JobLeases {
  private readonly q;
  private readonly t: Transactions;

  constructor(
    db: Db,
    private readonly reads: JobReads,
  ) {
    this.t = transactionsOf(db);
    this.q = {
      due: { submit: db.prepare(dueQuery('submit')), fetch: db.prepare(dueQuery('fetch')) },
      offLinkDue: db.prepare(offLinkDueQuery()),
      windowEnd: db.prepare(windowEndQuery()).pluck(),
      nextDue: { submit: db.prepare(nextDueQuery('submit')), fetch: db.prepare(nextDueQuery('fetch')) },
      lease: db.prepare(`UPDATE jobs SET lease_token = ?, service = ? WHERE id = ? AND lease_token IS NULL`),
      holds: db.prepare(`SELECT 1 FROM jobs WHERE id = ? AND lease_token = ?`),
      pauseRequested: db.prepare(`SELECT pause_requested FROM jobs WHERE id = ?`),
      release: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?`,
      ),
      revoke: db.prepare(`UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE id = ?`),
      leased: db.prepare(`SELECT count(*) AS n FROM jobs WHERE lease_token IS NOT NULL`),
      resetAll: db.prepare(
        `UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL WHERE lease_token IS NOT NULL`,
      ),
      tracking: db.prepare(
        `SELECT * FROM jobs WHERE step = 'track' AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '') ORDER BY id`,
      ),
      followed: db.prepare(`SELECT * FROM jobs WHERE ${FOLLOWED} AND service IN (?, '') ORDER BY id`),
      followedCount: db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${FOLLOWED} AND service IN (?, '')`),
      trackingCount: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = 'track' AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')`,
      ),
      liveInStep: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE step = ? AND state NOT IN ${NOT_WORKABLE} AND service IN (?, '')`,
      ),
      unfinished: db.prepare(
        `SELECT count(*) AS n FROM jobs WHERE state NOT IN ${FINISHED} AND state != 'paused' AND service IN (?, '')`,
      ),
    };
  }

  /**
   * Claims up to `limit` due jobs of one step in an IMMEDIATE transaction, each under a new token, and
   * besides them up to `offLinkLimit` submit steps that send no file (`offLink`, see `dueQuery`). `busy`
   * jobs are left alone (a worker of this process still runs them).
   */
  claim(
    step: Step,
    limit: number,
    service: string,
    busy: (id: number) => boolean = () => false,
    now = Date.now(),
    offLinkLimit = 0,
  ): { row: JobRow; token: string; offLink: boolean }[] {
    if (limit <= 0 && offLinkLimit <= 0) return [];
    // No slot for an upload: only a step that sends nothing can start. Most turns of a busy runner find
    // none (one read of an index that is empty for a batch of files), and take no write lock for it.
    if (step === 'submit' && limit <= 0 && this.q.offLinkDue.get(now, service) === undefined) return [];
    return this.t.tx(() => {
      const claimed: { row: JobRow; token: string; offLink: boolean }[] = [];
      const taken = { link: 0, off: 0 };
      const full = () => taken.link >= limit && taken.off >= offLinkLimit;
      for (;;) {
        const batch = step === 'submit' ? this.dueUploads(now, service) : this.dueFetches(now, service);
        const before = claimed.length;
        for (const { id, off_link } of batch) {
          if (full()) break;
          const offLink = off_link === 1;
          if (offLink ? taken.off >= offLinkLimit : taken.link >= limit) continue;
          if (busy(id)) continue;
          const token = randomUUID();
          if (this.q.lease.run(token, service, id).changes === 1) {
            const row = this.reads.get(id);
            if (row) {
              claimed.push({ row, token, offLink });
              taken[offLink ? 'off' : 'link']++;
            }
          }
        }
        // A concurrency above one batch (the CLI allows any) takes the next batch: the leased are skipped.
        if (batch.length < MAX_CONCURRENCY || full() || claimed.length === before) break;
      }
      return claimed;
    });
  }

  private dueFetches(now: number, service: string): Due[] {
    return this.q.due.fetch.all(now, service) as Due[];
  }

  /**
   * The due uploads, as many as `MAX_CONCURRENCY`: those that send nothing among the next
   * `SMALL_FIRST_WINDOW` first (they never wait for the link), then the others in the queue's order.
   */
  private dueUploads(now: number, service: string): Due[] {
    let offLink = this.q.offLinkDue.all(now, service) as { id: number; queue_order: number }[];
    if (offLink.length > 0) {
      const end = this.q.windowEnd.get(now, service) as number | null;
      offLink = offLink.filter((j) => end !== null && j.queue_order <= end);
    }
    const first = (this.q.due.submit.all(now, service) as Due[]).filter((j) => j.off_link === 0);
    return [...offLink.map((j) => ({ id: j.id, off_link: 1 })), ...first].slice(0, MAX_CONCURRENCY);
  }

  /** Still the holder? A user action (cancel, retry, pause of an idle job) takes the token away. */
  holds(id: number, token: string): boolean {
    return this.q.holds.get(id, token) !== undefined;
  }

  release(id: number, token: string): void {
    this.q.release.run(id, token);
  }

  /** Takes the job away from whoever works it (a user action wins over a worker). */
  revoke(id: number): void {
    this.q.revoke.run(id);
  }

  /** Has the user asked this job to pause? One column, not the whole row (asked between HTTP steps). */
  pauseRequested(id: number): boolean {
    const r = this.q.pauseRequested.get(id) as { pause_requested: unknown } | undefined;
    return r !== undefined && r.pause_requested !== 0;
  }

  /** Jobs a worker held when its process died; the runner that takes the queue lock frees them. */
  resetLeases(): number {
    return this.q.resetAll.run().changes;
  }

  leasedCount(): number {
    return (this.q.leased.get() as { n: number }).n;
  }

  tracking(service: string): JobRow[] {
    return this.q.tracking.all(service).map((r) => parseJobRow(r));
  }

  /** Canceled or paused jobs whose dub may still be charged (see FOLLOWED). */
  followed(service: string): JobRow[] {
    return this.q.followed.all(service).map((r) => JobRow.parse(r));
  }

  followedCount(service: string): number {
    return (this.q.followedCount.get(service) as { n: number }).n;
  }

  trackingCount(service: string): number {
    return (this.q.trackingCount.get(service) as { n: number }).n;
  }

  /** Live jobs at a step, whether due now or waiting for a retry. */
  liveInStep(step: Step, service: string): number {
    return (this.q.liveInStep.get(step, service) as { n: number }).n;
  }

  /** Jobs of this service that a run still has to finish (paused ones wait for the user, not the run). */
  unfinishedCount(service: string): number {
    return (this.q.unfinished.get(service) as { n: number }).n;
  }

  /** When the next job of a step (or of either) is due; null when none waits. */
  nextDueAt(service: string, step?: Step): number | null {
    if (!step) {
      const [a, b] = [this.nextDueAt(service, 'submit'), this.nextDueAt(service, 'fetch')];
      return a === null ? b : b === null ? a : Math.min(a, b);
    }
    const r = this.q.nextDue[step].get(service) as { t: number } | undefined;
    return r?.t ?? null;
  }
}

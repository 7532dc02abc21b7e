import type { Db } from './types';

/** A job's estimate in credits, as `job_counts` sums it: its length rounded up, studio quality double. */
const ESTIMATE = `(CASE WHEN reuse_results = 0 AND duration IS NOT NULL
  THEN (CAST(duration AS INTEGER) + (duration > CAST(duration AS INTEGER))) * (1 + studio) ELSE 0 END)`;

/**
 * Dubs the service holds and may charge any moment, without Dubdesk knowing yet: tracked, not charged, not
 * ended there. Paused and canceled ones are charged too when they complete (the service has no pause).
 */
const AT_SERVICE = `step = 'track' AND remote_id IS NOT NULL AND credits_charged IS NULL
  AND coalesce(remote_status, 0) NOT IN (4, 5) AND state NOT IN ('failed', 'completed') AND service IN (?, '')`;

/** The charges the queue recorded (migration 15), and the dubs the service may charge before it records them. */
export class ChargeLedger {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      charged: db.prepare(`SELECT charged FROM charge_ledger WHERE service = ?`),
      atService: db.prepare(`SELECT coalesce(sum(${ESTIMATE}), 0) AS n FROM jobs WHERE ${AT_SERVICE}`),
      // Through the state index: the live list's "committed" (`job_counts`) leaves canceled jobs out.
      canceled: db.prepare(
        `SELECT coalesce(sum(${ESTIMATE}), 0) AS n FROM jobs WHERE state = 'canceled' AND ${AT_SERVICE}`,
      ),
    };
  }

  /** Every credit recorded as charged by the jobs of `service`, ever (a clear or a retry takes none back). */
  charged(service: string): number {
    return (this.q.charged.get(service) as { charged: number } | undefined)?.charged ?? 0;
  }

  /** The estimates of the dubs at the service not yet charged: what a balance read may have paid for unseen. */
  atService(service: string): number {
    return (this.q.atService.get(service) as { n: number }).n;
  }

  /** Of those, the canceled ones: the service charges them when they complete, the live list counts none. */
  canceledAtService(service: string): number {
    return (this.q.canceled.get(service) as { n: number }).n;
  }
}

import type { Db } from './types';
import { JobRow } from './job-store/rows';

/**
 * Canceled jobs whose create (v2) or start (v1, legacy) was under way when they were canceled: the service
 * may have made the dub, and charges it when it completes. The poller finds out which (see
 * flows/after-cancel.ts); through the `jobs_create_pending` index, so the runner may count them every turn.
 */
const UNDER_WAY = `create_pending != 0 AND state = 'canceled' AND step = 'submit' AND lease_token IS NULL
  AND service IN (?, '')`;

export class CanceledCreates {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      list: db.prepare(`SELECT * FROM jobs WHERE ${UNDER_WAY} ORDER BY id`),
      count: db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${UNDER_WAY}`),
      holdingDubs: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND +state = 'canceled'
          AND (create_pending != 0 OR (remote_id IS NOT NULL AND step IN ('track', 'fetch')
            AND coalesce(remote_status, 0) != 4))
          ORDER BY id DESC`,
      ),
    };
  }

  /** The jobs of `service` canceled while their create was under way. */
  of(service: string): JobRow[] {
    return this.q.list.all(service).map((r) => JobRow.parse(r));
  }

  count(service: string): number {
    return (this.q.count.get(service) as { n: number }).n;
  }

  /**
   * Of these sources, the newest canceled job of each language that holds a dub the service made (or may
   * have: its create was under way): adding its source again retries it, fetching that dub, not paying again.
   */
  holdingDubs(sources: readonly string[]): JobRow[] {
    return this.q.holdingDubs.all(JSON.stringify(sources)).map((r) => JobRow.parse(r));
  }
}

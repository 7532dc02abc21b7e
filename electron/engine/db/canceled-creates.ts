import type { Db } from './open';
import { statement } from './statements';
import { JobRow } from './job-store/rows';

/**
 * Canceled jobs whose create (v2) or start (v1, legacy) was under way when they were canceled: the service
 * may have made the dub, and charges it when it completes. The poller finds out which (see
 * flows/after-cancel.ts); through the `jobs_create_pending` index, so the runner may count them every turn.
 */
const UNDER_WAY = `create_pending != 0 AND state = 'canceled' AND step = 'submit' AND lease_token IS NULL
  AND service IN (?, '')`;

export function canceledCreates(db: Db, service: string): JobRow[] {
  return statement(db, `SELECT * FROM jobs WHERE ${UNDER_WAY} ORDER BY id`)
    .all(service)
    .map((r) => JobRow.parse(r));
}

export function canceledCreatesCount(db: Db, service: string): number {
  return (statement(db, `SELECT count(*) AS n FROM jobs WHERE ${UNDER_WAY}`).get(service) as { n: number }).n;
}

/**
 * Of these sources, the newest canceled job of each language that holds a dub the service made (or may
 * have: its create was under way): adding its source again retries it, fetching that dub, not paying again.
 */
export function canceledHoldingDubs(db: Db, sources: readonly string[]): JobRow[] {
  return statement(
    db,
    `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(?)) AND +state = 'canceled'
      AND (create_pending != 0 OR (remote_id IS NOT NULL AND step IN ('track', 'fetch')
        AND coalesce(remote_status, 0) != 4))
      ORDER BY id DESC`,
  )
    .all(JSON.stringify(sources))
    .map((r) => JobRow.parse(r));
}

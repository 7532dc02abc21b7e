import type { JobFilter, JobState } from '../../../../shared/contract/jobs';
import type { Db } from '../open';
import { where } from './filter';
import { JobRow } from './rows';

/** The queue as lists show it: pages of jobs or of sources, ids by filter, counts and credit sums. */
export class JobLists {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      counts: db.prepare(`SELECT state, count(*) AS n FROM jobs WHERE cleared_at IS NULL GROUP BY state`),
      sums: db.prepare(`
        SELECT
          coalesce(sum(CASE WHEN credits_charged IS NULL AND state NOT IN ('completed', 'failed', 'canceled') AND duration IS NOT NULL
            THEN (CAST(duration AS INTEGER) + (duration > CAST(duration AS INTEGER))) * (1 + studio) END), 0) AS committed,
          coalesce(sum(credits_charged), 0) AS charged
        FROM jobs WHERE cleared_at IS NULL`),
    };
  }

  page(filter: JobFilter, offset: number, limit: number): { total: number; rows: JobRow[] } {
    const w = where(filter);
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as { n: number }
    ).n;
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE ${w.sql} ORDER BY id LIMIT @limit OFFSET @offset`)
      .all({ ...w.params, limit, offset })
      .map((r) => JobRow.parse(r));
    return { total, rows };
  }

  /** A page of sources (in queue order: by their first job), each with its jobs that match the filter. */
  sourcesPage(
    filter: JobFilter,
    offset: number,
    limit: number,
  ): { total: number; groups: { source: string; rows: JobRow[] }[] } {
    const w = where(filter);
    const total = (
      this.db.prepare(`SELECT count(DISTINCT source) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as {
        n: number;
      }
    ).n;
    const sources = (
      this.db
        .prepare(
          `SELECT source, min(id) AS first FROM jobs WHERE ${w.sql} GROUP BY source ORDER BY first LIMIT @limit OFFSET @offset`,
        )
        .all({ ...w.params, limit, offset }) as { source: string }[]
    ).map((r) => r.source);
    const rows = this.db
      .prepare(
        `SELECT * FROM jobs WHERE ${w.sql} AND source IN (SELECT value FROM json_each(@sources)) ORDER BY id`,
      )
      .all({ ...w.params, sources: JSON.stringify(sources) })
      .map((r) => JobRow.parse(r));
    const bySource = new Map<string, JobRow[]>(sources.map((s) => [s, []]));
    for (const r of rows) bySource.get(r.source)?.push(r);
    return { total, groups: sources.map((source) => ({ source, rows: bySource.get(source) ?? [] })) };
  }

  /** Ids matching a filter, in queue order. */
  select(filter: JobFilter): number[] {
    const w = where(filter);
    return (
      this.db.prepare(`SELECT id FROM jobs WHERE ${w.sql} ORDER BY id`).all(w.params) as { id: number }[]
    ).map((r) => r.id);
  }

  countsByState(): Partial<Record<JobState, number>> {
    const out: Partial<Record<JobState, number>> = {};
    for (const r of this.q.counts.all() as { state: JobState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** Credits the queue will still spend (estimates of jobs not yet charged) and has been charged. */
  creditSums(): { committed: number; charged: number } {
    return this.q.sums.get() as { committed: number; charged: number };
  }
}

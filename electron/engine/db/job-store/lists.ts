import type { JobFilter, JobState } from '../../../../shared/contract/jobs';
import type { Db } from '../types';
import { LIVE, onlyStates, where } from './filter';
import { JobRow } from './rows';

/**
 * The queue as lists show it: pages of jobs or of sources, ids by filter, counts and credit sums. Counts,
 * sums and the unfiltered page of sources come from the aggregates the triggers keep (`job_counts`,
 * `live_sources`, migration 8), never from reading the history.
 */
export class JobLists {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      counts: db.prepare(`SELECT state, n FROM job_counts WHERE n > 0`),
      sums: db.prepare(
        // A completed job is charged (or free): what it estimated is no longer committed.
        `SELECT coalesce(sum(CASE WHEN state <> 'completed' THEN committed END), 0) AS committed, coalesce(sum(charged), 0) AS charged FROM job_counts`,
      ),
      sourceCount: db.prepare(`SELECT count(*) AS n FROM live_sources`),
      historyCount: db.prepare(`SELECT n FROM history_count`),
      sources: db.prepare(`SELECT source FROM live_sources ORDER BY first_order, source LIMIT ? OFFSET ?`),
      jobsOf: db.prepare(
        `SELECT * FROM jobs WHERE source IN (SELECT value FROM json_each(@sources)) AND ${LIVE} ORDER BY id`,
      ),
    };
  }

  /** How many jobs match: the counts table answers a filter of states alone. */
  private total(filter: JobFilter, w: ReturnType<typeof where>): number {
    if (onlyStates(filter)) {
      const counts = this.countsByState();
      const states = filter.states ?? (Object.keys(counts) as JobState[]);
      return states.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
    }
    return (this.db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as { n: number })
      .n;
  }

  /** A page of jobs, by id (`added`) or in the queue's order (`queue`: the order the worker takes them in). */
  page(
    filter: JobFilter,
    offset: number,
    limit: number,
    order: 'added' | 'queue' = 'added',
  ): { total: number; rows: JobRow[] } {
    const w = where(filter);
    const by = order === 'queue' ? 'queue_order, id' : 'id';
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE ${w.sql} ORDER BY ${by} LIMIT @limit OFFSET @offset`)
      .all({ ...w.params, limit, offset })
      .map((r) => JobRow.parse(r));
    return { total: this.total(filter, w), rows };
  }

  /** A page of sources (in the queue's order: by their first job's place), each with its jobs that match the filter. */
  sourcesPage(
    filter: JobFilter,
    offset: number,
    limit: number,
  ): { total: number; groups: { source: string; rows: JobRow[] }[] } {
    let total: number;
    let sources: string[];
    let rows: JobRow[];
    if (onlyStates(filter) && !filter.states) {
      total = (this.q.sourceCount.get() as { n: number }).n;
      sources = (this.q.sources.all(limit, offset) as { source: string }[]).map((r) => r.source);
      rows = this.q.jobsOf.all({ sources: JSON.stringify(sources) }).map((r) => JobRow.parse(r));
    } else {
      const w = where(filter);
      total = (
        this.db.prepare(`SELECT count(DISTINCT source) AS n FROM jobs WHERE ${w.sql}`).get(w.params) as {
          n: number;
        }
      ).n;
      sources = (
        this.db
          .prepare(
            `SELECT source, min(queue_order) AS first FROM jobs WHERE ${w.sql} GROUP BY source ORDER BY first, source LIMIT @limit OFFSET @offset`,
          )
          .all({ ...w.params, limit, offset }) as { source: string }[]
      ).map((r) => r.source);
      rows = this.db
        .prepare(
          `SELECT * FROM jobs WHERE ${w.sql} AND source IN (SELECT value FROM json_each(@sources)) ORDER BY id`,
        )
        .all({ ...w.params, sources: JSON.stringify(sources) })
        .map((r) => JobRow.parse(r));
    }
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

  /** Jobs of the live list per state (the counts table, kept by triggers). */
  countsByState(): Partial<Record<JobState, number>> {
    const out: Partial<Record<JobState, number>> = {};
    for (const r of this.q.counts.all() as { state: JobState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** Jobs in the history (cleared or aged out of the live list): the count kept by triggers (migration 10). */
  historyCount(): number {
    return (this.q.historyCount.get() as { n: number } | undefined)?.n ?? 0;
  }

  /** Credits the queue will still spend (estimates of jobs not yet charged) and has been charged. */
  creditSums(): { committed: number; charged: number } {
    return this.q.sums.get() as { committed: number; charged: number };
  }
}

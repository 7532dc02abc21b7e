import type { EngineEvent } from '../../shared/contract/events';
import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { followProgress } from './progress';

/** Every live job, a page at a time. */
async function everyJob(api: DubdeskApi): Promise<JobView[]> {
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ filter: {}, offset, limit: 500 });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}

/** A job's line changes when any of these does. */
const shownOf = (j: JobView) =>
  `${j.state}|${Math.round(j.progress)}|${j.waiting?.message ?? ''}|${j.error?.message ?? ''}|${j.bytesPerSecond ?? ''}`;

/**
 * `status --watch`: the queue as `run` shows its progress, kept up to date by the engine's events, a queue
 * worked by another process included (its commits reach this one's feed as "jobs changed": the jobs are
 * read again and each one that moved is shown). On a terminal the lines are redrawn in place; piped, one
 * line per change. Returns when `stop` aborts (Ctrl+C).
 */
export async function watchStatus(api: DubdeskApi, stop: AbortSignal): Promise<void> {
  const out = process.stdout;
  const mode = out.isTTY && process.env.TERM !== 'dumb' ? 'tty' : 'plain';
  const initial = await everyJob(api);
  const known = new Map(initial.map((j) => [j.id, shownOf(j)]));
  const held = (await api.totals()).paused?.reason ?? null;
  const progress = followProgress(api, mode, initial, () => true, held, out);
  if (mode === 'plain') for (const j of initial) progress.update(j);
  let reading: Promise<void> = Promise.resolve();
  const readAgain = () => {
    reading = reading.then(async () => {
      for (const j of await everyJob(api)) {
        const shown = shownOf(j);
        if (known.get(j.id) === shown) continue;
        known.set(j.id, shown);
        progress.update(j);
      }
    });
  };
  const unsubscribe = api.subscribe((e: EngineEvent) => {
    if (e.type === 'jobs-changed') readAgain();
    if (e.type === 'job') known.set(e.job.id, shownOf(e.job));
  });
  // Nothing else may hold the process: the engine's watch of the data folder does not (it never keeps a
  // command alive that is done).
  const alive = setInterval(() => {}, 60_000);
  try {
    await new Promise<void>((resolve) => {
      if (stop.aborted) resolve();
      stop.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    clearInterval(alive);
    unsubscribe();
    await reading.catch(() => {});
    progress.stop();
  }
}

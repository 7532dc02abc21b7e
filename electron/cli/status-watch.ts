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

/**
 * `status --watch`: the queue as `run` shows its progress, kept up to date by the engine's events. A queue
 * worked by another process is heard too: its commits reach this engine's change feed, which tells the faces
 * "jobs changed", and the progress reads the jobs again (as a run's does after a bulk change). On a terminal
 * the lines are redrawn in place; piped, one line per change. Returns when `stop` aborts (Ctrl+C).
 */
export async function watchStatus(api: DubdeskApi, stop: AbortSignal): Promise<void> {
  const out = process.stdout;
  const mode = out.isTTY && process.env.TERM !== 'dumb' ? 'tty' : 'plain';
  const initial = await everyJob(api);
  const held = (await api.totals()).paused?.reason ?? null;
  const progress = followProgress(
    api,
    mode,
    initial,
    () => true,
    held,
    () => everyJob(api),
    out,
  );
  if (mode === 'plain') for (const j of initial) progress.update(j);
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
    progress.stop();
  }
}

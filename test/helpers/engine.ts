import { tempDir } from './temp-dir';
import type { EngineEvent } from '../../shared/contract/events';
import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { openDubdesk, type DubdeskHost, type RunOptions } from '../../electron/engine/index';
import type { Sandbox } from '../../electron/sandbox/server';

/** An engine on a fresh SQLite file, talking to `sb` over loopback HTTP, with quick retries. */
export function engineFor(sb: Sandbox, home = tempDir(), apiKey = sb.account.apiKey): DubdeskHost {
  return openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    maxServiceAttempts: 50,
    checkOutputs: true,
  });
}

export const quickRun = (concurrency = 2): RunOptions => ({
  untilDone: true,
  concurrency,
  pollIntervalMs: 50,
});

/** Every job, a page at a time. */
export async function allJobs(api: DubdeskApi): Promise<JobView[]> {
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ offset, limit: 500 });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}

export async function job(api: DubdeskApi, id: number): Promise<JobView> {
  return api.getJob({ id });
}

/** Job views as they are emitted, in order. */
export function recordJobs(api: DubdeskApi): JobView[] {
  const seen: JobView[] = [];
  api.subscribe((e: EngineEvent) => {
    if (e.type === 'job') seen.push(e.job);
  });
  return seen;
}

/** Resolves on the first job event that passes `test`. */
export function whenJob(api: DubdeskApi, test: (j: JobView) => boolean): Promise<JobView> {
  return new Promise((resolve) => {
    const stop = api.subscribe((e) => {
      if (e.type === 'job' && test(e.job)) {
        stop();
        resolve(e.job);
      }
    });
  });
}

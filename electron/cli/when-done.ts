import { InvalidArgumentError } from 'commander';
import type { BatchSummary } from '../../shared/contract/batch-summary';
import { drainedSummary } from '../../shared/contract/batch-summary';
import { isTerminal, type JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { NO_BATCH, watchDrain } from '../../shared/when-done';
import type { WhenDoneExecutor } from '../engine/index';
import { printable } from './format';

/** `--when-done`'s value: a command, never an empty or blank one (refused when typed, before any work). */
export function whenDoneCommand(raw: string): string {
  if (raw.trim() === '')
    throw new InvalidArgumentError(
      "expected a command to run, e.g. --when-done 'cat > summary.json' (leave the flag out to run nothing)",
    );
  return raw;
}

/** Runs `--when-done`'s command with the summary on its standard input; says so when it fails. True: it ran well. */
export async function runWhenDone(
  command: string,
  summary: BatchSummary,
  executor?: WhenDoneExecutor,
): Promise<boolean> {
  // The engine is loaded when needed: imported at the top, every command paid for loading it (`--help` too).
  const run = executor ?? (await import('../engine/index')).systemExecutor();
  const r = await run.run(command, `${JSON.stringify(summary)}\n`);
  if (r.failure)
    process.stderr.write(
      `dubdesk: the --when-done command ${printable(command)} failed: ${printable(r.failure)}\n`,
    );
  return r.failure === null;
}

/**
 * A run that does not end by itself (`dubdesk run`): each time the queue drains after a batch (the one rule
 * every face uses), the command runs once, with that batch's summary. Returns what stops following.
 */
export function whenEachBatchIsDone(api: DubdeskApi, command: string, allJobs: () => Promise<JobView[]>) {
  let watch = NO_BATCH;
  let before: JobView[] = [];
  let chain = Promise.resolve();
  const unsubscribe = api.subscribe((e) => {
    if (e.type !== 'totals') return;
    const wasOpen = watch.batchOpen;
    const r = watchDrain(watch, e.totals.left);
    watch = r.watch;
    if (!wasOpen && watch.batchOpen) chain = chain.then(async () => void (before = await allJobs()));
    if (r.drained)
      chain = chain.then(async () => {
        const after = await allJobs();
        const was = new Map(before.map((j) => [j.id, j]));
        const batch = after.filter((j) => {
          const b = was.get(j.id);
          return !b || !isTerminal(b.state);
        });
        await runWhenDone(command, drainedSummary(before, batch, await api.totals()));
      });
  });
  return { stop: unsubscribe, settled: () => chain };
}

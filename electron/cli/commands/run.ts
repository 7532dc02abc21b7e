import type { Command } from 'commander';
import { toContractError } from '../../../shared/contract/errors';
import type { JobView } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { RunOutcome } from '../../engine/index';
import { withSession, type CliSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { catchInterrupts, type CaughtInterrupts } from '../interrupts';
import { printJson, printable, statusJson } from '../format';
import { positiveInt, positiveSeconds } from '../options';

export interface RunFlags {
  untilDone: boolean;
  concurrency: number;
  pollInterval: number;
  json?: boolean;
}

/** Every job (or the jobs of `ids`), a page at a time: 10,000 jobs never travel at once. */
export async function allJobs(api: DubdeskApi, ids: readonly number[] | null): Promise<JobView[]> {
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ filter: ids ? { ids: [...ids] } : {}, offset, limit: 500 });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}

/** What a command did to its jobs: compared before and after, so the figures are this command's alone. */
function summarize(
  before: readonly JobView[],
  after: readonly JobView[],
  label: string,
  skipped: readonly string[],
): void {
  const was = new Map(before.map((j) => [j.id, j]));
  const moved = (s: JobView['state']) => after.filter((j) => j.state === s && was.get(j.id)?.state !== s);
  const completed = moved('completed');
  const failed = moved('failed');
  // Charged when the service completed the dub, downloaded or not; the estimate of those same dubs beside it.
  const paid = after.filter((j) => (j.creditsCharged ?? 0) !== (was.get(j.id)?.creditsCharged ?? 0));
  const charged = paid.reduce(
    (n, j) => n + (j.creditsCharged ?? 0) - (was.get(j.id)?.creditsCharged ?? 0),
    0,
  );
  const estimated = paid.reduce((n, j) => n + (j.estimatedCredits ?? 0), 0);
  const parts = [`${completed.length} completed`, `${failed.length} failed`];
  if (skipped.length) parts.push(`${skipped.length} file(s) skipped`);
  const open = after.filter((j) => !['completed', 'failed', 'canceled'].includes(j.state)).length;
  if (open) parts.push(`${open} still open`);
  process.stderr.write(
    `${label}: ${parts.join(', ')}. Credits charged: ${charged}${estimated ? ` (estimated ${estimated})` : ''}.\n`,
  );
  for (const j of failed)
    process.stderr.write(
      `  ✗ #${j.id} ${printable(j.sourceName)} → ${j.destLang}: ${printable(j.error?.message ?? 'failed')}\n`,
    );
  for (const s of skipped) process.stderr.write(`  skipped: ${s}\n`);
}

async function queueLine(api: DubdeskApi): Promise<void> {
  const t = await api.totals();
  const c = t.counts;
  const rest = t.left ? `, ${t.left} still open` : '';
  process.stderr.write(
    `Queue (all jobs): ${t.total} job(s): ${c.completed} completed, ${c.failed} failed${c.canceled ? `, ${c.canceled} canceled` : ''}${rest}.\n`,
  );
}

/**
 * Before a run that should finish: the service must answer at all. Unreachable at the start, the command
 * says so and ends (exit 5; the jobs stay queued); a network that drops during the run is waited for.
 * A few tries, so that one dropped connection is not taken for a dead network.
 */
async function reachable(api: DubdeskApi): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await api.account();
      return;
    } catch (e) {
      const offline = toContractError(e).code === 'offline';
      if (!offline) return; // anything else is the run's to handle (a rejected key halts it clearly)
      if (attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 300 * attempt));
    }
  }
}

const OUTCOME_EXIT: Partial<Record<RunOutcome, ExitCode>> = {
  auth: ExitCode.Auth,
  credits: ExitCode.Credits,
  aborted: ExitCode.Interrupted,
  // `--until-done` returned with work left: not done, so not 0.
  paused: ExitCode.Failed,
};

/**
 * Runs the queue with progress. The exit code and the summary speak for `scope` (a `dub` batch) or, for a
 * plain `run`, for the jobs this run moved; the queue's totals follow, labelled as such.
 */
export async function runQueue(
  session: CliSession,
  flags: RunFlags,
  scope: number[] | null,
  skipped: readonly string[] = [],
  /** Ctrl+C as `dub` caught it while it was adding (the first press then means: do not start). */
  caught?: CaughtInterrupts,
): Promise<ExitCode> {
  const { api, host } = session;
  // Caught from here on: the service check can take a while, and a press then must drain, not kill.
  const interrupts = caught ?? catchInterrupts();
  if (flags.untilDone && (await api.totals()).left > 0 && !interrupts.drain.aborted) await reachable(api);
  const inScope = scope ? new Set(scope) : null;
  const before = await allJobs(api, scope);
  const { followProgress, progressMode } = await import('../progress');
  const progress = followProgress(api, progressMode(flags.json), before, (id) => !inScope || inScope.has(id));
  interrupts.sayWith((line) => progress.say(line));
  let outcome: RunOutcome;
  try {
    outcome = await host.run({
      untilDone: flags.untilDone,
      concurrency: flags.concurrency,
      pollIntervalMs: flags.pollInterval * 1000,
      signal: interrupts.cut,
      drain: interrupts.drain,
    });
  } finally {
    progress.stop();
    interrupts.dispose();
  }
  const after = await allJobs(api, scope);
  if (flags.json) printJson(statusJson(after));
  else {
    summarize(before, after, scope ? 'This batch' : 'This run', skipped);
    if (!scope) await queueLine(api);
  }
  if (outcome === 'auth') {
    const t = await api.totals();
    process.stderr.write(
      `dubdesk: ${describeError({ code: 'auth', message: t.paused?.message ?? 'the service rejected the API key' })}\n`,
    );
  }
  if (outcome === 'credits')
    process.stderr.write(
      'dubdesk: out of credits; the queue is paused. Add credits, then `dubdesk run` again.\n',
    );
  if (outcome === 'paused') process.stderr.write('dubdesk: the queue is paused; `dubdesk resume` goes on.\n');
  const code = OUTCOME_EXIT[outcome];
  if (code !== undefined) return code;
  const failed = after.some(
    (j) => j.state === 'failed' && (!!scope || before.find((b) => b.id === j.id)?.state !== 'failed'),
  );
  return failed || skipped.length ? ExitCode.Failed : ExitCode.Ok;
}

/** A run that does not stop by itself watches the folders too: say which. */
async function announceWatching(api: DubdeskApi): Promise<void> {
  const active = (await api.listWatchFolders()).folders.filter((f) => !f.paused);
  if (active.length === 0) return;
  const names = active.map((f) => printable(f.path));
  process.stderr.write(
    `Watching ${active.length} folder(s): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''} (Ctrl+C stops).\n`,
  );
}

export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--concurrency <n>', 'uploads at once, and downloads at once', positiveInt, 2)
    .option('--poll-interval <seconds>', 'shortest time between two status polls', positiveSeconds, 3);
}

export function registerRunCommand(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description(
        'Work the queue: upload, start, poll and download, and watch the folders until interrupted (Ctrl+C stops; jobs resume next time)',
      )
      .option(
        '--until-done',
        'return once every job has finished (watched folders are not watched then)',
        false,
      )
      .option('--json', 'print the final status as JSON on stdout', false),
  ).action(async (flags: RunFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      if (!flags.untilDone && !flags.json) await announceWatching(s.api);
      return runQueue(s, flags, null);
    });
  });
}

import type { Command } from 'commander';
import type { JobView } from '../../../shared/domain';
import { withSession, type CliSession } from '../context';
import { ExitCode } from '../exit-codes';
import { printJson, statusJson } from '../format';
import { positiveInt, positiveSeconds } from '../options';
import { reportProgress } from '../progress';

export interface RunFlags {
  untilDone: boolean;
  concurrency: number;
  pollInterval: number;
  json?: boolean;
}

function progressMode(json: boolean | undefined): 'tty' | 'plain' | 'silent' {
  if (json) return 'silent';
  return process.stderr.isTTY ? 'tty' : 'plain';
}

/** Runs the queue with progress; the exit code speaks for the jobs in `scope` (all jobs when null). */
export async function runQueue(
  session: CliSession,
  flags: RunFlags,
  scope: number[] | null,
): Promise<ExitCode> {
  const { engine } = session;
  const inScope = (): JobView[] => {
    const all = engine.list();
    return scope ? all.filter((j) => scope.includes(j.id)) : all;
  };
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    process.stderr.write(
      '\nStopping after the current step; every job resumes where it was on the next run. (Ctrl+C again to quit now.)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const stop = reportProgress(engine, progressMode(flags.json), inScope);
  let outcome;
  try {
    outcome = await engine.run({
      untilDone: flags.untilDone,
      concurrency: flags.concurrency,
      pollIntervalMs: flags.pollInterval * 1000,
      signal: controller.signal,
    });
  } finally {
    stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const jobs = inScope();
  if (flags.json) printJson(statusJson(jobs));
  else summarize(jobs);
  if (outcome === 'auth') {
    process.stderr.write(
      'dubdesk: the service rejected the API key. Check it, then `dubdesk login` and `dubdesk run` again.\n',
    );
    return ExitCode.Auth;
  }
  if (outcome === 'credits') {
    process.stderr.write(
      'dubdesk: out of credits; the queue is paused. Add credits, then `dubdesk run` again.\n',
    );
    return ExitCode.Credits;
  }
  if (outcome === 'aborted') return 130 as ExitCode;
  return jobs.some((j) => j.state === 'failed') ? ExitCode.Failed : ExitCode.Ok;
}

function summarize(jobs: readonly JobView[]): void {
  const count = (s: JobView['state']) => jobs.filter((j) => j.state === s).length;
  const charged = jobs.reduce((n, j) => n + (j.creditsCharged ?? 0), 0);
  const estimated = jobs
    .filter((j) => j.state === 'completed')
    .reduce((n, j) => n + (j.estimatedCredits ?? 0), 0);
  const parts = [`${count('completed')} completed`, `${count('failed')} failed`];
  if (count('canceled')) parts.push(`${count('canceled')} canceled`);
  const open = jobs.length - count('completed') - count('failed') - count('canceled');
  if (open) parts.push(`${open} still open`);
  process.stderr.write(
    `${parts.join(', ')}. Credits charged: ${charged}${estimated ? ` (estimated ${estimated})` : ''}.\n`,
  );
  for (const j of jobs.filter((x) => x.state === 'failed'))
    process.stderr.write(`  #${j.id} ${j.sourceName} → ${j.destLang}: ${j.error}\n`);
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
      .description('Work the queue: upload, start, poll and download (Ctrl+C stops; jobs resume next time)')
      .option('--until-done', 'return once every job has finished', false)
      .option('--json', 'print the final status as JSON on stdout', false),
  ).action(async (flags: RunFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, (s) =>
      runQueue(s, flags, null),
    );
  });
}

import { plural } from '../../../shared/format';
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { JOB_STATES, type JobFilter, type JobState } from '../../../shared/contract/jobs';
import type { ActionResult } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { QueueTotals } from '../../../shared/contract/queue';
import { withSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { describeJob, jobRange, printJson, printable } from '../format';
import { printCredits, printJobs, printPaused, say, STARTED_DUBS_GO_ON } from '../status-view';
import { StatusJson } from '../json-shapes';
import { nothingToMove, reportCompleted } from './retry-report';
import { jobId, positiveInt } from '../options';

function states(raw: string): JobState[] {
  const list = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.filter((s) => !(JOB_STATES as readonly string[]).includes(s));
  if (bad.length || list.length === 0)
    throw new InvalidArgumentError(
      `unknown state ${bad.join(', ') || '(none)'}; choose from ${JOB_STATES.join(', ')}`,
    );
  return list as JobState[];
}

const ids = (raw: string, previous: number[] = []) => [...previous, jobId(raw)];

interface StatusFlags {
  json: boolean;
  state?: JobState[];
  failed: boolean;
  search?: string;
  history: boolean;
  all: boolean;
  limit: number;
  verbose: boolean;
}

/** `limitGiven`: `--limit` was on the command line (JSON then has the last N jobs too, else every job). */
async function printStatus(api: DubdeskApi, flags: StatusFlags, limitGiven: boolean): Promise<void> {
  const filter: JobFilter = {
    ...(flags.failed ? { states: ['failed'] } : flags.state ? { states: flags.state } : {}),
    ...(flags.search ? { search: flags.search } : {}),
    ...(flags.history ? { history: true } : {}),
  };
  const lastN = async () => {
    const { total } = await api.listJobs({ filter, limit: 1 });
    const page = await api.listJobs({ filter, offset: Math.max(0, total - flags.limit), limit: flags.limit });
    return { total, jobs: page.jobs };
  };
  if (flags.json) {
    const jobs = limitGiven && !flags.all ? (await lastN()).jobs : await pageAll(api, filter);
    return printJson(StatusJson.parse({ queue: await totalsWithBalance(api), jobs }));
  }
  const { total, jobs } = flags.all
    ? await pageAll(api, filter).then((j) => ({ total: j.length, jobs: j }))
    : await lastN();
  const totals = await totalsWithBalance(api);
  if (total === 0) {
    process.stdout.write(
      totals.total > 0
        ? 'No job matches.\n'
        : 'The queue is empty. Add files with `dubdesk add FILE --to es`.\n',
    );
    return printPaused(totals);
  }
  printJobs(jobs, flags.verbose);
  if (jobs.length < total)
    say(`\n(the last ${jobs.length} of ${total}; --all for every job, --state or --search to narrow)`);
  printCredits(totals);
  printPaused(totals);
}

/** The totals with the balance just read from the service (when the queue has jobs and it answers). */
async function totalsWithBalance(api: DubdeskApi): Promise<QueueTotals> {
  const first = await api.totals();
  if (first.total === 0) return first;
  return (await api.account().then(
    () => true,
    () => false,
  ))
    ? api.totals()
    : first;
}

async function pageAll(api: DubdeskApi, filter: JobFilter) {
  const out = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ filter, offset, limit: 500 });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}

/** Reports an action on several jobs: what changed (named, when few), and each job it skipped, with why. */
async function reportAction(api: DubdeskApi, r: ActionResult, done: string, none: string): Promise<ExitCode> {
  if (r.changed.length > 0 && r.changed.length <= 10)
    for (const id of r.changed) process.stderr.write(`${done} ${describeJob(await api.getJob({ id }))}.\n`);
  else if (r.changed.length) process.stderr.write(`${done} ${r.changed.length} jobs.\n`);
  else if (r.skipped.length === 0) process.stderr.write(`${none}\n`);
  for (const s of r.skipped) process.stderr.write(`  #${s.id}: ${describeError(s.error)}\n`);
  return r.skipped.length && !r.changed.length ? ExitCode.Usage : ExitCode.Ok;
}

/** Canceled jobs whose dub the service had started: what it may still cost, and what Dubdesk does about it. */
function startedNote(ids: readonly number[]): string {
  const which =
    ids.length === 1 ? `Job #${ids[0]}'s dub was` : `${ids.length} of these dubs (${jobRange(ids)}) were`;
  return `${which} already started (or being started) on the service, which cannot stop a dub: it may still charge for ${ids.length === 1 ? 'it when it completes' : 'them when they complete'}. Dubdesk follows ${ids.length === 1 ? 'it' : 'them'} while it works the queue and records any charge in the job's history; \`dubdesk retry\` then fetches the results at no further charge.`;
}

interface SelectFlags {
  all?: boolean;
  failed?: boolean;
  canceled?: boolean;
}

/** The ids given, or a filter from the flags; exactly one of the two. */
function selection(
  given: number[],
  byFlag: JobFilter | null,
): { ids: number[] } | { filter: JobFilter } | null {
  if (given.length && byFlag) return null;
  if (given.length) return { ids: given };
  if (byFlag) return { filter: byFlag };
  return null;
}

export function registerStatusCommands(program: Command): void {
  program
    .command('status')
    .description('List the jobs and where each one is')
    .option('--state <states>', `only jobs in these states (${JOB_STATES.join(', ')})`, states)
    .option('--failed', 'only failed jobs', false)
    .option('--search <text>', 'only jobs whose source name or path contains this')
    .option(
      '--history',
      'the history instead of the queue: finished jobs older than the history setting, or cleared',
      false,
    )
    .option('--limit <n>', 'show the last N jobs', positiveInt, 50)
    .option('--all', 'show every job', false)
    .option('--verbose', 'say what to do about each error', false)
    .option(
      '--json',
      'print the queue and every matching job as JSON on stdout (see docs/cli-json.md)',
      false,
    )
    .action(async (flags: StatusFlags, cmd: Command) => {
      const limitGiven = cmd.getOptionValueSource('limit') === 'cli';
      await withSession(cmd, { needsService: false }, ({ api }) => printStatus(api, flags, limitGiven));
    });

  program
    .command('retry')
    .description(
      'Try failed or canceled jobs again from where they stopped (a finished dub is not paid twice)',
    )
    .argument('[ids...]', 'job ids', ids, [])
    .option('--failed', 'every failed job', false)
    .option('--canceled', 'every canceled job', false)
    .option(
      '--out <dir>',
      'save the results in this folder instead; what a job already saved moves there with it',
    )
    .action(async (given: number[], flags: SelectFlags & { out?: string }, cmd: Command) => {
      const states: JobState[] = [
        ...(flags.failed ? ['failed' as const] : []),
        ...(flags.canceled ? ['canceled' as const] : []),
      ];
      const sel = selection(given, states.length ? { states } : null);
      if (!sel)
        return usage(
          'dubdesk retry: give job ids, or --failed / --canceled (not both). See `dubdesk retry --help`.',
        );
      const outDir = flags.out ? resolve(flags.out) : null;
      let queued = 0;
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const r = await api.retryJobs(outDir ? { ...sel, outDir } : sel);
        queued = r.changed.length;
        // Completed jobs are not dubbed again: their files moved, or the command that dubs them again.
        const answered = outDir ? r.skipped.filter(nothingToMove) : [];
        const rest = { ...r, skipped: r.skipped.filter((s) => !answered.includes(s)) };
        const moved = r.moved?.length ?? 0;
        const code =
          rest.changed.length || rest.skipped.length || moved + answered.length === 0
            ? await reportAction(
                api,
                rest,
                'Queued again',
                flags.failed && !flags.canceled ? 'No failed jobs.' : 'No job to retry.',
              )
            : ExitCode.Ok;
        if (outDir) await reportCompleted(api, r, outDir);
        return answered.length && !queued && !moved ? ExitCode.Usage : code;
      });
      if (queued > 0 && process.exitCode === ExitCode.Ok)
        process.stderr.write('Run `dubdesk run` to work them.\n');
    });

  program
    .command('cancel')
    .description(
      'Stop jobs for good (a dub the service already started cannot be stopped there: it may still be charged)',
    )
    .argument('[ids...]', 'job ids', ids, [])
    .option('--all', 'every job not yet finished', false)
    .option('--failed', 'every failed job (they stop being retried)', false)
    .action(async (given: number[], flags: SelectFlags, cmd: Command) => {
      const byFlag: JobFilter | null = flags.all
        ? { states: ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused', 'failed'] }
        : flags.failed
          ? { states: ['failed'] }
          : null;
      const sel = selection(given, byFlag);
      if (!sel)
        return usage(
          'dubdesk cancel: give job ids, or --all / --failed (not both). See `dubdesk cancel --help`.',
        );
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const r = await api.cancelJobs(sel);
        const code = await reportAction(api, r, 'Canceled', 'No job to cancel.');
        const started = r.startedAtService ?? [];
        if (started.length) process.stderr.write(`${startedNote(started)}\n`);
        return code;
      });
    });

  for (const [name, verb] of [
    ['pause', 'Pause'],
    ['resume', 'Resume'],
  ] as const) {
    program
      .command(name)
      .description(
        name === 'pause'
          ? 'Pause jobs, or the whole queue without ids (a running step finishes first)'
          : 'Resume paused jobs, or the whole queue without ids',
      )
      .argument('[ids...]', 'job ids; none: the whole queue', ids, [])
      .action(async (given: number[], _flags: unknown, cmd: Command) => {
        process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
          if (given.length === 0) {
            const t = name === 'pause' ? await api.pauseQueue() : await api.resumeQueue();
            process.stderr.write(
              t.paused
                ? `The queue is paused; running steps finish first. ${STARTED_DUBS_GO_ON}\n`
                : 'The queue goes on.\n',
            );
            return ExitCode.Ok;
          }
          const r =
            name === 'pause' ? await api.pauseJobs({ ids: given }) : await api.resumeJobs({ ids: given });
          const code = await reportAction(api, r, `${verb}d`, `No job to ${name}.`);
          if (name === 'pause') {
            const jobs = await Promise.all(r.changed.map((id) => api.getJob({ id })));
            if (jobs.some((j) => j.remoteId !== null && j.creditsCharged === null))
              process.stderr.write(`${STARTED_DUBS_GO_ON}\n`);
          }
          return code;
        });
      });
  }

  program
    .command('clear')
    .description('Remove finished jobs from the list (their files stay where they are)')
    .option('--completed', 'completed jobs (the default)', false)
    .option('--failed', 'failed jobs', false)
    .option('--canceled', 'canceled jobs', false)
    .action(async (flags: { completed: boolean; failed: boolean; canceled: boolean }, cmd: Command) => {
      const chosen: JobState[] = [
        ...(flags.completed ? ['completed' as const] : []),
        ...(flags.failed ? ['failed' as const] : []),
        ...(flags.canceled ? ['canceled' as const] : []),
      ];
      const which = chosen.length ? chosen : (['completed'] as JobState[]);
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const r = await api.clearJobs({ filter: { states: which } });
        process.stderr.write(
          r.changed.length
            ? `Cleared ${r.changed.length} ${which.join('/')} ${r.changed.length === 1 ? 'job' : 'jobs'} from the list; no file was deleted.\n`
            : `No ${which.join('/')} job to clear.\n`,
        );
        return ExitCode.Ok;
      });
    });

  program
    .command('logs')
    .description("A job's history and its recent log lines (attach them when reporting a problem)")
    .argument('<id>', 'job id', jobId)
    .option('--lines <n>', 'how many log lines', positiveInt, 50)
    .action(async (id: number, flags: { lines: number }, cmd: Command) => {
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const job = await api.getJob({ id });
        process.stdout.write(
          `#${job.id} ${printable(job.source)} → ${job.destLang} (${job.api}): ${job.state}\n`,
        );
        if (job.error) process.stdout.write(`  ${describeError(job.error)}\n`);
        process.stdout.write('History:\n');
        for (const h of job.history)
          process.stdout.write(
            `  ${h.at}  ${h.from ?? '-'} → ${h.to}  ${h.event}${h.reason ? `: ${printable(h.reason)}` : ''}\n`,
          );
        const { lines } = await api.jobLog({ id, limit: flags.lines });
        process.stdout.write(`Log (${plural(lines.length, 'line')}):\n`);
        for (const l of lines)
          process.stdout.write(`  ${l.at}  ${l.level.padEnd(5)}  ${printable(l.message)}\n`);
        return ExitCode.Ok;
      });
    });
}

function usage(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = ExitCode.Usage;
}

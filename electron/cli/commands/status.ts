import { InvalidArgumentError, type Command } from 'commander';
import { JOB_STATES, type JobFilter, type JobState } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { QueueTotals } from '../../../shared/contract/queue';
import { withSession } from '../context';
import { printJson } from '../format';
import { StatusJson } from '../json-shapes';
import { positiveInt } from '../options';
import { printCredits, printFullDisks, printJobs, printPaused, say } from '../status-view';

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

interface StatusFlags {
  watch: boolean;
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
  // The table in the queue's order, as the window lists them; --json by id, as scripts have always read it.
  const order = flags.json ? 'added' : 'queue';
  const lastN = async () => {
    const { total } = await api.listJobs({ filter, limit: 1 });
    const offset = Math.max(0, total - flags.limit);
    const page = await api.listJobs({ filter, offset, limit: flags.limit, order });
    return { total, jobs: page.jobs };
  };
  if (flags.json) {
    const jobs = limitGiven && !flags.all ? (await lastN()).jobs : await pageAll(api, filter, order);
    return printJson(StatusJson.parse({ queue: await totalsWithBalance(api), jobs }));
  }
  const { total, jobs } = flags.all
    ? await pageAll(api, filter, order).then((j) => ({ total: j.length, jobs: j }))
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
  printFullDisks(totals);
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

async function pageAll(api: DubdeskApi, filter: JobFilter, order: 'added' | 'queue') {
  const out = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listJobs({ filter, offset, limit: 500, order });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}

/** `dubdesk status`: the jobs and where each one is. */
export function registerStatusCommand(program: Command): void {
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
    .option('--watch', 'keep showing the queue as it moves, worked here or elsewhere (Ctrl+C stops)', false)
    .option(
      '--json',
      'print the queue and every matching job as JSON on stdout (see docs/cli-json.md)',
      false,
    )
    .action(async (flags: StatusFlags, cmd: Command) => {
      const limitGiven = cmd.getOptionValueSource('limit') === 'cli';
      // The live display (log-update and its terminal helpers) loads only for --watch.
      if (flags.watch) return (await import('./status-watch-command')).watchUntilInterrupted(cmd);
      await withSession(cmd, { needsService: false }, ({ api }) => printStatus(api, flags, limitGiven));
    });
}

import { plural } from '../../../shared/format';
import type { Command } from 'commander';
import { toContractError } from '../../../shared/contract/errors';
import { isTerminal, type JobView } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { RunOutcome } from '../../engine/index';
import { withSession, type CliSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { catchInterrupts, type CaughtInterrupts } from '../interrupts';
import { printJson, printable } from '../format';
import { printHandedOn } from '../handed-on';
import { RunJson } from '../json-shapes';
import { printJobsElsewhere, printPausedJobs, printQueueLine, printSummary, tally } from '../run-summary';
import { byteRate, positiveInt, positiveSeconds, sendWindow } from '../options';
import type { SendWindow } from '../../../shared/schedule';
import { runWhenDone, whenDoneCommand, whenEachBatchIsDone } from '../when-done';

export interface RunFlags {
  untilDone: boolean;
  concurrency: number;
  pollInterval: number;
  json?: boolean;
  /** A shell command run once the queue is done, with the summary (`--json`'s) on its standard input. */
  whenDone?: string;
  maxUploadRate?: number;
  maxDownloadRate?: number;
  sendWindow?: SendWindow;
  /**
   * Another Dubdesk working the queue makes what was asked (a package): return at once with HandedToOther,
   * printing nothing, for the caller to follow it.
   */
  handedOnQuietly?: boolean;
  /** Only what is handed on is said (Package now): no job lines, no batch summary of dubs done before. */
  handedOnOnly?: boolean;
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

const countElsewhere = (jobs: readonly JobView[]) =>
  jobs.filter((j) => j.waiting?.code === 'other-service').length;

/** "pid N" of the Dubdesk that holds the queue, when `e` says another one works it; null for any other error. */
function otherWorker(e: unknown): string | null {
  const err = toContractError(e);
  if (err.code !== 'busy') return null;
  return err.holder ? `pid ${err.holder.pid}` : 'another process';
}

const OUTCOME_EXIT: Partial<Record<RunOutcome | 'other-dubdesk', ExitCode>> = {
  'other-dubdesk': ExitCode.HandedToOther,
  auth: ExitCode.Auth,
  credits: ExitCode.Credits,
  aborted: ExitCode.Interrupted,
  // `--until-done` returned with work left: not done, so not 0.
  paused: ExitCode.Paused,
  unreachable: ExitCode.Offline,
};

export interface RunResult {
  code: ExitCode;
  /** What `--json` prints (alone for `run`, under `run` for `dub`). */
  json: RunJson;
}

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
): Promise<RunResult> {
  const { api, host } = session;
  // Caught from here on: the service check can take a while, and a press then must drain, not kill.
  const interrupts = caught ?? catchInterrupts();
  if (flags.untilDone && (await api.totals()).left > 0 && !interrupts.drain.aborted) await reachable(api);
  const inScope = scope ? new Set(scope) : null;
  const before = await allJobs(api, scope);
  const { followProgress, progressMode } = await import('../progress');
  const held = (await api.totals()).paused?.reason ?? null;
  const progress = followProgress(
    api,
    flags.handedOnOnly && !flags.json ? 'notices' : progressMode(flags.json),
    before,
    (id) => !inScope || inScope.has(id),
    held,
    () => allJobs(api, scope),
  );
  interrupts.sayWith((line) => progress.say(line));
  // A run that goes on watching: the command runs after each batch; one that ends: once, at its end.
  const eachBatch =
    flags.whenDone && !flags.untilDone
      ? whenEachBatchIsDone(api, flags.whenDone, () => allJobs(api, null))
      : null;
  let outcome: RunOutcome | 'other-dubdesk';
  let last: JobView[] | null;
  let worker: string | null = null;
  try {
    outcome = await host
      .run({
        untilDone: flags.untilDone,
        concurrency: flags.concurrency,
        pollIntervalMs: flags.pollInterval * 1000,
        signal: interrupts.cut,
        drain: interrupts.drain,
        ...(flags.maxUploadRate !== undefined ? { maxUploadRate: flags.maxUploadRate } : {}),
        ...(flags.maxDownloadRate !== undefined ? { maxDownloadRate: flags.maxDownloadRate } : {}),
        ...(flags.sendWindow !== undefined ? { sendWindow: flags.sendWindow } : {}),
      })
      .catch((e: unknown) => {
        // `dub`'s jobs are queued, and the Dubdesk that works the queue dubs them: not a failure.
        worker = scope ? otherWorker(e) : null;
        if (worker === null) throw e;
        return 'other-dubdesk' as const;
      });
  } finally {
    eachBatch?.stop();
    // Read before the progress stops: the last jobs to finish may have been told only as "list again".
    last = await allJobs(api, scope).catch(() => null);
    progress.stop(last ?? []);
    interrupts.dispose();
  }
  await eachBatch?.settled();
  const after = last ?? (await allJobs(api, scope));
  const t = tally(before, after);
  // The balance a run ends with is the service's after its charges: read again, not the one read before the last.
  if (t.counts.creditsCharged > 0) await api.account().catch(() => null);
  const totals = await api.totals();
  if (outcome === 'other-dubdesk' && flags.handedOnQuietly) {
    const code = ExitCode.HandedToOther;
    return { code, json: { outcome, exitCode: code, tally: t.counts, queue: totals, jobs: after } };
  }
  // Every job left is paused on its own (the queue itself is not): the run ended, but it is not done.
  const leftPaused = flags.untilDone && outcome === 'done' && t.counts.paused > 0;
  if (!flags.json && !flags.handedOnOnly)
    printSummary(t, scope ? 'This batch' : 'This run', skipped, totals.paused !== null);
  const was = new Map(before.map((j) => [j.id, j.state]));
  // Dubs this run finished, and those of the batch made before whose QC or package it finished.
  const failedPackages = await printHandedOn(
    api,
    after.filter(
      (j) => j.state === 'completed' && (was.get(j.id) !== 'completed' || inScope?.has(j.id) === true),
    ),
    flags.json,
  ).catch(() => 0);
  if (!flags.json && !scope) printQueueLine(totals);
  if (outcome === 'other-dubdesk') {
    const open = after.filter((j) => !isTerminal(j.state)).length;
    process.stderr.write(
      `dubdesk: ${open === 1 ? 'the job is' : `${plural(open, 'job')} are`} queued; another Dubdesk (${worker ?? 'another process'}) is working this queue and dubs ${open === 1 ? 'it' : 'them'}; follow it with \`dubdesk status --watch\`.\n`,
    );
  }
  if (outcome === 'auth')
    process.stderr.write(
      `dubdesk: ${describeError({ code: 'auth', message: totals.paused?.message ?? 'the service rejected the API key' })}\n`,
    );
  if (outcome === 'credits')
    process.stderr.write(
      'dubdesk: out of credits; the queue is paused. Add credits, then `dubdesk run` again.\n',
    );
  if (outcome === 'paused') process.stderr.write('dubdesk: the queue is paused; `dubdesk resume` goes on.\n');
  if (outcome === 'unreachable') {
    const said = after.find((j) => j.waiting?.code === 'retry')?.waiting?.message;
    process.stderr.write(
      `dubdesk: ${said ? printable(said) : "the service's list of dubs keeps failing"}; the jobs stay as they are, and the next \`dubdesk run\` follows them again.\n`,
    );
  }
  if (leftPaused) printPausedJobs(after);
  // Jobs of another service or account wait for it: `--until-done` is not done while they are open.
  const leftElsewhere =
    flags.untilDone &&
    outcome === 'done' &&
    (flags.json ? countElsewhere(after) : printJobsElsewhere(after)) > 0;
  const failed = after.some(
    (j) => j.state === 'failed' && (!!scope || before.find((b) => b.id === j.id)?.state !== 'failed'),
  );
  const code =
    OUTCOME_EXIT[outcome] ??
    (leftPaused
      ? ExitCode.Paused
      : leftElsewhere
        ? ExitCode.Elsewhere
        : failed || skipped.length || failedPackages > 0
          ? ExitCode.Failed
          : ExitCode.Ok);
  const json: RunJson = { outcome, exitCode: code, tally: t.counts, queue: totals, jobs: after };
  // Done means the queue has nothing open at all, after a run that had work: never after its first job.
  const hadWork = before.some((j) => !isTerminal(j.state)) || after.length > before.length;
  if (flags.whenDone && flags.untilDone && outcome === 'done' && totals.left === 0 && hadWork) {
    const ran = await runWhenDone(flags.whenDone, json);
    // The batch's own result comes first; a batch that went well still says its command failed.
    if (!ran && code === ExitCode.Ok)
      return { code: ExitCode.WhenDoneFailed, json: { ...json, exitCode: ExitCode.WhenDoneFailed } };
  }
  return { code, json };
}

/** A run that does not stop by itself watches the folders too: say which. */
async function announceWatching(api: DubdeskApi): Promise<void> {
  const active = (await api.listWatchFolders()).folders.filter((f) => !f.paused);
  if (active.length === 0) return;
  const names = active.map((f) => printable(f.path));
  process.stderr.write(
    `Watching ${plural(active.length, 'folder')}: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''} (Ctrl+C stops).\n`,
  );
}

/** `run --until-done` watches nothing: with folders to watch, one line says so and what does watch them. */
async function notWatching(api: DubdeskApi): Promise<void> {
  const active = (await api.listWatchFolders()).folders.filter((f) => !f.paused);
  if (active.length === 0) return;
  const one = active.length === 1;
  const names = active.map((f) => printable(f.path));
  process.stderr.write(
    `dubdesk: ${active.length} watched folder${one ? ' is' : 's are'} not watched by \`run --until-done\` (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}); \`dubdesk run\` or \`dubdesk serve\` watches ${one ? 'it' : 'them'}.\n`,
  );
}

export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--concurrency <n>', 'uploads at once, and downloads at once', positiveInt, 2)
    .option('--poll-interval <seconds>', 'shortest time between two status polls', positiveSeconds, 3)
    .option(
      '--when-done <command>',
      'run this shell command once the queue is done, the summary (as --json prints it) on its standard input (exit 9 when it fails after a batch that went well)',
      whenDoneCommand,
    )
    .option(
      '--max-upload-rate <rate>',
      'cap all uploads together, e.g. 5MiB (per second; default: the settings)',
      byteRate,
    )
    .option(
      '--max-download-rate <rate>',
      'cap all downloads together, e.g. 20MiB (default: the settings)',
      byteRate,
    )
    .option(
      '--send-window <from-to>',
      'start new uploads only between these local times, e.g. 22:00-07:00',
      sendWindow,
    );
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
      .option('--json', 'print what the run did as JSON on stdout (see docs/cli-json.md)', false),
  ).action(async (flags: RunFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      if (!flags.json) await (flags.untilDone ? notWatching(s.api) : announceWatching(s.api));
      const r = await runQueue(s, flags, null);
      if (flags.json) printJson(RunJson.parse(r.json));
      return r.code;
    });
  });
}

import { plural } from '../../../shared/format';
import type { OutputSelection } from '../../../shared/contract/jobs';
import { Option, type Command } from 'commander';
import type { AddResult } from '../../../shared/contract/batches';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { PresetOptionsInput } from '../../../shared/contract/presets';
import { withSession, type CliSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { creditCount, printJson } from '../format';
import { reportAlreadyDone, reportOtherTarget, unfinishedHere } from '../already-dubbed';
import { AddJson, DubJson } from '../json-shapes';
import { readingLine } from '../reading';
import { audioTrackOption, languageList, outputSelection, sendOption } from '../options';
import { addDeliverOptions } from '../deliver-options';
import { catchInterrupts } from '../interrupts';
import { addRunOptions, allJobs, runQueue, type RunFlags, type RunResult } from './run';
import { batchRequest, requireLanguagesOrPreset, type AddFlags } from './batch-options';

interface Added {
  /** The batch's jobs: added, retried, and those already in the queue. */
  ids: number[];
  /** Dubs already made whose QC, SubRip file or package is still to be made here (a run stopped). */
  unfinished: number[];
  /** Inputs refused, as lines naming the file and the fix. */
  skipped: string[];
  code: ExitCode;
  result: AddResult;
}

/** `add --json` (and the first part of `dub --json`): the batch's jobs, and every input or dub that did not become a new job, with why. */
function addJson(a: Added): AddJson {
  const { refused, ...r } = a.result;
  return { ...r, jobs: a.ids, rejected: refused.map((x) => ({ input: x.input, ...x.error })) };
}

function report(r: AddResult, flags: AddFlags): string[] {
  const skipped = r.refused.map((x) => describeError(x.error));
  for (const s of skipped) process.stderr.write(`skipped: ${s}\n`);
  reportAlreadyDone(r.alreadyDone);
  if (!flags.json && (r.added.length || r.retried.length || r.alreadyQueued.length)) {
    const unknown = r.unknownLengthJobs
      ? ` (+${plural(r.unknownLengthJobs, 'URL job')} of unknown length)`
      : '';
    const of = r.balance !== null ? ` of ${creditCount(r.balance)} available` : '';
    const parts = [`Queued ${plural(r.added.length, 'job')}`];
    if (r.retried.length) parts.push(`retrying ${r.retried.length}`);
    if (r.alreadyQueued.length) parts.push(`${r.alreadyQueued.length} already queued`);
    process.stderr.write(`${parts.join(', ')}; about ${creditCount(r.credits)} credits${unknown}${of}.\n`);
    if (r.pastBudgetBy > 0)
      process.stderr.write(
        `This batch goes past the monthly budget by ${plural(r.pastBudgetBy, 'credit')} (--force); \`dubdesk spend\` shows the month.\n`,
      );
    if (r.balance === null && r.added.length + r.retried.length > 0)
      process.stderr.write(
        'The balance could not be checked (is the service reachable?); the jobs start when it answers.\n',
      );
  }
  return skipped;
}

/**
 * "Nothing new to dub", and what is still to be made here of the dubs already made (after a crash): `dub`
 * finishes it, `add` says how.
 */
function reportNothingNew(r: AddResult, skipped: number, unfinished: number, runs: boolean): void {
  const finishing = !unfinished
    ? ''
    : runs
      ? '; finishing what is made here of them (QC, package): nothing is charged'
      : `; what is made here of ${unfinished === 1 ? 'one' : unfinished} (QC, package) is not finished: \`dubdesk run --until-done\` finishes it, at no charge`;
  process.stderr.write(
    `Nothing new to dub: ${r.alreadyDone.length} already dubbed${skipped ? `, ${plural(skipped, 'input')} skipped` : ''}, 0 queued${finishing}.\n`,
  );
}

/** Queues the batch. Refused inputs are reported; the valid rest of the batch goes ahead. */
async function addJobs(
  session: CliSession,
  inputs: string[],
  options: PresetOptionsInput,
  flags: AddFlags,
  /** `dub`: a run follows, which finishes what is unfinished of the dubs already made. */
  runs: boolean,
): Promise<Added> {
  const r = await session.api.add({ inputs, ...options, force: flags.force, again: flags.again });
  if (r.notice && !flags.json) process.stderr.write(`note: ${r.notice}\n`);
  const skipped = report(r, flags);
  const ids = [...r.added, ...r.retried, ...r.alreadyQueued];
  const done = r.alreadyDone.length
    ? await allJobs(
        session.api,
        r.alreadyDone.map((d) => d.jobId),
      )
    : [];
  const unfinished = await unfinishedHere(session.api, done);
  if (!flags.json) {
    reportOtherTarget(done, options.loudness ?? 'broadcast');
    if (ids.length === 0 && done.length) reportNothingNew(r, skipped.length, unfinished.length, runs);
  }
  if (ids.length === 0 && r.alreadyDone.length === 0) {
    process.stderr.write('dubdesk: nothing to add.\n');
    return { ids, unfinished, skipped, code: ExitCode.Usage, result: r };
  }
  return { ids, unfinished, skipped, code: skipped.length ? ExitCode.Failed : ExitCode.Ok, result: r };
}

function addJobOptions(cmd: Command): Command {
  return batchOptionFlags(
    cmd.argument('<sources...>', 'video or audio files, folders of them, or http(s) URLs (v2 only)'),
  )
    .option('--preset <name>', 'start from a named preset (`dubdesk preset list`); flags given beside it win')
    .option('--force', 'queue even if the estimate exceeds the credit balance or the monthly budget', false)
    .option('--again', 'dub again what was already dubbed with the same settings (charged again)', false)
    .option('--json', 'print what was queued (and, for dub, what the run did) as JSON on stdout', false);
}

/** The options of a batch, as `add`, `dub` and `preset save` take them. */
export function batchOptionFlags(cmd: Command): Command {
  return addDeliverOptions(cmd)
    .option('--to <langs>', 'target languages, comma-separated (e.g. es,fr,de)', languageList)
    .option('--from <lang>', 'source language, or auto to detect it', 'auto')
    .option('--studio', 'studio quality (costs 2x credits)', false)
    .addOption(
      new Option('--api <generation>', 'service generation').choices(['v2', 'v1', 'legacy']).default('v2'),
    )
    .option('--out <dir>', "folder for the results (default: each source's own folder)")
    .option(
      '--outputs <list>',
      'what to download: default, all, or a list such as translated_mp4,translated_subtitle',
      outputSelection,
      'default' as OutputSelection,
    )
    .addOption(
      new Option('--naming <style>', 'suffix: Movie.es.mp4 beside Movie.es.vtt; folders: es/Movie.mp4')
        .choices(['suffix', 'folders'])
        .default('suffix'),
    )
    .option(
      '--upload-once',
      "v2: upload each file once, make the other languages from the service's copy (default: auto, for files of 50 MiB or more going to several languages)",
    )
    .option('--no-upload-once', 'upload each file once per language')
    .addOption(sendOption())
    .addOption(audioTrackOption());
}

/**
 * A session for a batch: its options (a preset's, the flags beside it) settled before anything is read or
 * said, so a preset that is not there is the only line; then "Reading…", then `fn` with the options.
 */
function withBatch<T>(
  cmd: Command,
  inputs: string[],
  flags: AddFlags,
  fn: (s: CliSession, options: PresetOptionsInput) => Promise<T>,
): Promise<T> {
  requireLanguagesOrPreset(flags, cmd);
  let options: PresetOptionsInput | null = null;
  const check = async (api: DubdeskApi) => void (options = await batchRequest(api, flags, cmd));
  return withSession(cmd, { needsService: true, quiet: flags.json, check }, async (s) => {
    if (!options) throw new Error('the batch options were not settled');
    if (!flags.json) process.stderr.write(readingLine(inputs));
    return fn(s, options);
  });
}

export function registerAddCommands(program: Command): void {
  addJobOptions(
    program.command('add').description('Queue files, folders or URLs to dub into the target languages'),
  ).action(async (inputs: string[], flags: AddFlags, cmd: Command) => {
    process.exitCode = await withBatch(cmd, inputs, flags, async (s, options) => {
      const added = await addJobs(s, inputs, options, flags, false);
      if (flags.json) printJson(AddJson.parse(addJson(added)));
      return added.code;
    });
  });

  addRunOptions(
    addJobOptions(program.command('dub').description('Add, then run the queue until every job is done')),
  ).action(async (inputs: string[], flags: AddFlags & RunFlags, cmd: Command) => {
    process.exitCode = await withBatch(cmd, inputs, flags, async (s, options) => {
      // Ctrl+C while adding: the batch is added whole or not at all, then the run does not start.
      const caught = catchInterrupts();
      let added: Added;
      try {
        added = await addJobs(s, inputs, options, flags, true);
      } catch (e) {
        caught.dispose();
        throw e;
      }
      let run: RunResult | null = null;
      // The batch's jobs, and what is left to make here of its dubs already made (QC, package).
      const scope = [...added.ids, ...added.unfinished];
      if (scope.length === 0) caught.dispose();
      else run = await runQueue(s, { ...flags, untilDone: true }, scope, added.skipped, caught);
      if (flags.json) printJson(DubJson.parse({ ...addJson(added), run: run?.json ?? null }));
      return run?.code ?? added.code;
    });
  });
}

import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { AddResult } from '../../../shared/contract/batches';
import type { ApiGeneration, OutputNaming, OutputSelection } from '../../../shared/contract/jobs';
import { withSession, type CliSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { printJson, printable } from '../format';
import { languageList, outputSelection } from '../options';
import { catchInterrupts } from '../interrupts';
import { addRunOptions, runQueue, type RunFlags } from './run';

interface AddFlags {
  to: string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  out?: string;
  outputs: OutputSelection;
  naming: OutputNaming;
  force: boolean;
  again: boolean;
  /** Absent: auto (on for big files going to several languages). */
  uploadOnce?: boolean;
  json?: boolean;
}

interface Added {
  /** The batch's jobs: added, retried, and those already in the queue. */
  ids: number[];
  /** Inputs refused, as lines naming the file and the fix. */
  skipped: string[];
  code: ExitCode;
  result: AddResult;
}

/** `add --json`: the batch's jobs, and every input or dub that did not become a new job, with why. */
function addJson(a: Added): Record<string, unknown> {
  const r = a.result;
  return {
    jobs: a.ids,
    added: r.added,
    retried: r.retried,
    alreadyQueued: r.alreadyQueued,
    alreadyDone: r.alreadyDone,
    rejected: r.refused.map((x) => ({ input: x.input, ...x.error })),
    credits: r.credits,
  };
}

function report(r: AddResult, flags: AddFlags): string[] {
  const skipped = r.refused.map((x) => describeError(x.error));
  for (const s of skipped) process.stderr.write(`skipped: ${s}\n`);
  for (const d of r.alreadyDone) {
    // A result moved or deleted since is named as such: "already dubbed" alone would send the user looking.
    const files = d.outputs.map((o) => (existsSync(o) ? printable(o) : `${printable(o)} (no longer there)`));
    process.stderr.write(
      `already dubbed: job #${d.jobId} (${printable(d.source)} → ${d.destLang})${files.length ? `, files ${files.join(', ')}` : ''}; pass --again to dub it again (it is charged again).\n`,
    );
  }
  if (!flags.json && (r.added.length || r.retried.length || r.alreadyQueued.length)) {
    const unknown = r.unknownLengthJobs ? ` (+${r.unknownLengthJobs} URL job(s) of unknown length)` : '';
    const of = r.balance !== null ? ` of ${r.balance} available` : '';
    const parts = [`Queued ${r.added.length} job(s)`];
    if (r.retried.length) parts.push(`retrying ${r.retried.length}`);
    if (r.alreadyQueued.length) parts.push(`${r.alreadyQueued.length} already queued`);
    process.stderr.write(`${parts.join(', ')}; about ${r.credits} credits${unknown}${of}.\n`);
    if (r.balance === null && r.added.length + r.retried.length > 0)
      process.stderr.write(
        'The balance could not be checked (is the service reachable?); the jobs start when it answers.\n',
      );
  }
  return skipped;
}

/** Queues the batch. Refused inputs are reported; the valid rest of the batch goes ahead. */
async function addJobs(session: CliSession, inputs: string[], flags: AddFlags): Promise<Added> {
  const r = await session.api.add({
    inputs,
    to: flags.to,
    from: flags.from,
    studio: flags.studio,
    api: flags.api,
    outputs: flags.outputs,
    naming: flags.naming,
    force: flags.force,
    again: flags.again,
    uploadOnce: flags.uploadOnce ?? 'auto',
    ...(flags.out ? { outDir: flags.out } : {}),
  });
  const skipped = report(r, flags);
  const ids = [...r.added, ...r.retried, ...r.alreadyQueued];
  if (ids.length === 0 && r.alreadyDone.length === 0) {
    process.stderr.write('dubdesk: nothing to add.\n');
    return { ids, skipped, code: ExitCode.Usage, result: r };
  }
  return { ids, skipped, code: skipped.length ? ExitCode.Failed : ExitCode.Ok, result: r };
}

function addJobOptions(cmd: Command): Command {
  return cmd
    .argument('<sources...>', 'video or audio files, folders of them, or http(s) URLs (v2 only)')
    .requiredOption('--to <langs>', 'target languages, comma-separated (e.g. es,fr,de)', languageList)
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
    .option('--force', 'queue even if the estimate exceeds the credit balance', false)
    .option('--again', 'dub again what was already dubbed with the same settings (charged again)', false)
    .option(
      '--upload-once',
      "v2: upload each file once, make the other languages from the service's copy (default: auto, for files over 50 MB going to several languages)",
    )
    .option('--no-upload-once', 'upload each file once per language')
    .option('--json', 'print a JSON document on stdout', false);
}

export function registerAddCommands(program: Command): void {
  addJobOptions(
    program.command('add').description('Queue files, folders or URLs to dub into the target languages'),
  ).action(async (inputs: string[], flags: AddFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      const added = await addJobs(s, inputs, flags);
      if (flags.json) printJson(addJson(added));
      return added.code;
    });
  });

  addRunOptions(
    addJobOptions(program.command('dub').description('Add, then run the queue until every job is done')),
  ).action(async (inputs: string[], flags: AddFlags & RunFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      // Ctrl+C while adding: the batch is added whole or not at all, then the run does not start.
      const caught = catchInterrupts();
      let added: Added;
      try {
        added = await addJobs(s, inputs, flags);
      } catch (e) {
        caught.dispose();
        throw e;
      }
      if (added.ids.length === 0) {
        caught.dispose();
        if (flags.json) printJson(addJson(added));
        return added.code;
      }
      return runQueue(s, { ...flags, untilDone: true }, added.ids, added.skipped, caught);
    });
  });
}

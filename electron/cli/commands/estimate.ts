import { Option, type Command } from 'commander';
import { toContractError } from '../../../shared/contract/errors';
import type { ApiGeneration, Send } from '../../../shared/contract/jobs';
import { sendsWords } from '../../../shared/sends';
import { withSession } from '../context';
import { describeError } from '../errors';
import { ExitCode, exitCodeFor } from '../exit-codes';
import { fileShareWords, uploadOnceWords } from '../../../shared/file-share';
import { formatLength, plural } from '../../../shared/format';
import { creditCount, printJson, printable, table } from '../format';
import { EstimateJson } from '../json-shapes';
import { readingLine } from '../reading';
import { audioTrackOption, languageList, sendOption } from '../options';
import type { AudioTrack } from '../../../shared/contract/audio-track';
import { addDeliverOptions, type DeliverFlags } from '../deliver-options';
import { madeHereWords } from '../deliver-words';

interface EstimateFlags extends DeliverFlags {
  to: string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  uploadOnce?: boolean;
  send?: Send;
  audioTrack?: AudioTrack;
  json: boolean;
}

export function registerEstimateCommand(program: Command): void {
  const estimate = program
    .command('estimate')
    .description('What a batch would cost in credits, against the balance (nothing is queued)')
    .argument('<sources...>', 'video or audio files, or folders of them')
    .requiredOption('--to <langs>', 'target languages, comma-separated', languageList)
    .option('--from <lang>', 'source language', 'auto')
    .option('--studio', 'studio quality (costs 2x credits)', false)
    .addOption(
      new Option('--api <generation>', 'service generation').choices(['v2', 'v1', 'legacy']).default('v2'),
    )
    .option(
      '--upload-once',
      'v2: upload each file once for all its languages (default: auto, files of 50 MiB or more)',
    )
    .option('--no-upload-once', 'upload each file once per language')
    .addOption(sendOption())
    .addOption(audioTrackOption())
    .option('--json', 'print the estimate as JSON on stdout (see docs/cli-json.md)', false)
    .action(async (inputs: string[], flags: EstimateFlags, cmd: Command) => {
      if (!flags.json) process.stderr.write(readingLine(inputs));
      process.exitCode = await withSession(
        cmd,
        { needsService: true, quiet: flags.json },
        async ({ api }) => {
          const e = await api.estimate({
            inputs,
            to: flags.to,
            from: flags.from,
            studio: flags.studio,
            api: flags.api,
            uploadOnce: flags.uploadOnce ?? 'auto',
            ...(flags.send ? { send: flags.send } : {}),
            ...(flags.audioTrack ? { audioTrack: flags.audioTrack } : {}),
          });
          const good = e.files.filter((f) => !f.problem);
          const bad = e.files.filter((f) => f.problem);
          for (const f of bad) process.stderr.write(`skipped: ${describeError(f.problem)}\n`);
          if (flags.json) {
            const { files: _all, ...rest } = e;
            printJson(
              EstimateJson.parse({
                ...rest,
                files: good.map(({ problem: _none, ...f }) => f),
                rejected: bad.flatMap((f) => (f.problem ? [{ input: f.input, ...f.problem }] : [])),
              }),
            );
          } else if (good.length || e.alreadyDone.length) {
            // Each row is what its file adds to the total, so the rows add up to it.
            const rows = [['FILE', 'LENGTH', `CREDITS (${plural(flags.to.length, 'language')})`]];
            for (const f of good)
              rows.push([
                printable(f.input),
                f.durationSeconds === null ? '?' : formatLength(f.durationSeconds),
                printable(fileShareWords(f, flags.to.length)),
              ]);
            process.stdout.write(`${table(rows)}\n\n`);
            const copies = good.flatMap((f) => f.free.filter((d) => d.why === 'copy')).length;
            process.stdout.write(
              `${plural(e.jobs, 'job')}${copies ? ` (${plural(copies, 'copy', 'copies')} at no charge)` : ''}: about ${creditCount(e.credits)} credits${flags.studio ? ' (studio quality, 2x)' : ''}.`,
            );
            if (e.balance !== null) {
              // The service's balance; what the queue already committed is spent before this batch.
              const committed = (await api.totals()).creditsCommitted;
              const after = e.balance - committed - e.credits;
              process.stdout.write(
                ` Balance: ${creditCount(e.balance)}${committed ? ` (${creditCount(committed)} committed to the queue)` : ''}${after < 0 ? `; short by ${creditCount(-after)}.` : `, ${creditCount(after)} after.`}`,
              );
            }
            const sends = e.sends ? sendsWords(e.sends) : null;
            if (sends) process.stdout.write(`\n${sends[0]?.toUpperCase()}${sends.slice(1)}.`);
            if (e.sends?.notice) process.stdout.write(`\nNote: ${e.sends.notice}.`);
            const madeHere = madeHereWords(
              flags,
              good.map((f) => f.input),
            );
            if (madeHere) process.stdout.write(`\n${madeHere}`);
            const once = uploadOnceWords(e.uploadOnce);
            if (once) process.stdout.write(`\nUpload once: ${once}`);
            if (e.alreadyDone.length)
              process.stdout.write(
                `\n${plural(e.alreadyDone.length, 'dub')} already made with these settings: not counted.`,
              );
            process.stdout.write(
              '\nThe charge is the duration the service measures, once per dub, when it completes.\n',
            );
          }
          if (e.jobs === 0 && e.alreadyDone.length === 0) return ExitCode.Usage;
          if (e.overBalance) return ExitCode.Credits;
          if (e.balance === null) {
            // No balance to compare with: say why (the service cannot be reached, most likely).
            const why = await api.account().then(
              () => null,
              (err: unknown) => toContractError(err),
            );
            if (why) {
              // Nothing was queued: no "queued jobs resume" here, only what to check.
              const offline = 'Check the network and the service address (--base-url or DUBDESK_BASE_URL).';
              process.stderr.write(`dubdesk: the balance is unknown: ${describeError(why, { offline })}\n`);
              return exitCodeFor(why.code);
            }
          }
          return bad.length ? ExitCode.Failed : ExitCode.Ok;
        },
      );
    });
  // The delivery choices cost nothing; taken so that a `dub` line estimates as it is, and said above.
  addDeliverOptions(estimate);
}

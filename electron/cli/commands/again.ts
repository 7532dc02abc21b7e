import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { AddResult } from '../../../shared/contract/batches';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { plural } from '../../../shared/format';
import { withSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { creditCount, describeJob, printJson } from '../format';
import { ids } from './job-actions';

interface AgainFlags {
  out?: string;
  force: boolean;
  json: boolean;
}

/** What was queued again, and what was not (a job still queued, a source no longer there). */
async function report(api: DubdeskApi, r: AddResult): Promise<ExitCode> {
  for (const x of r.refused) process.stderr.write(`skipped: ${describeError(x.error)}\n`);
  for (const id of r.alreadyQueued)
    process.stderr.write(`already in the queue: ${describeJob(await api.getJob({ id }))}\n`);
  const queued = r.added.length + r.retried.length;
  if (queued === 0) return r.refused.length ? ExitCode.Failed : ExitCode.Usage;
  const [its, it] = queued === 1 ? ['its', 'it'] : ['their', 'them'];
  const of = r.balance !== null ? ` of ${creditCount(r.balance)} available` : '';
  process.stderr.write(
    `Queued ${plural(queued, 'dub')} again with ${its} own choices; about ${creditCount(r.credits)} credits${of}. \`dubdesk run\` dubs ${it}.\n`,
  );
  return r.refused.length ? ExitCode.Failed : ExitCode.Ok;
}

/**
 * `dubdesk again 12 14`: finished jobs dubbed once more exactly as they were asked for (what they send,
 * their outputs, naming, package, subtitle formats, loudness target): the engine reads them from each job.
 */
export function registerAgainCommand(program: Command): void {
  program
    .command('again')
    .description(
      'Dub finished jobs again with their own choices (what they send, outputs, package, subtitles, loudness target); charged again',
    )
    .argument('<ids...>', 'job ids (`dubdesk status`, `dubdesk qc --failed`)', ids, [])
    .option('--out <dir>', "into this folder instead of each job's own")
    .option('--force', 'queue even if the cost exceeds the credit balance or the monthly budget', false)
    .option('--json', 'print what was queued as JSON on stdout', false)
    .action(async (given: number[], flags: AgainFlags, cmd: Command) => {
      process.exitCode = await withSession(cmd, { needsService: true }, async ({ api }) => {
        const r = await api.dubAgain({
          ids: given,
          force: flags.force,
          ...(flags.out ? { outDir: resolve(flags.out) } : {}),
        });
        if (flags.json) printJson(r);
        else
          for (const id of [...r.added, ...r.retried])
            process.stderr.write(`Dub again: ${describeJob(await api.getJob({ id }))}.\n`);
        return flags.json
          ? r.added.length + r.retried.length
            ? ExitCode.Ok
            : ExitCode.Usage
          : await report(api, r);
      });
    });
}

import { Option, type Command } from 'commander';
import type { ApiGeneration, OutputSelection } from '../../../shared/domain';
import type { Plan } from '../../engine/plan';
import { balanceOrWarn, reportRejected } from '../balance';
import { withSession, type CliSession } from '../context';
import { ExitCode } from '../exit-codes';
import { printJson } from '../format';
import { languageList, outputSelection } from '../options';
import { addRunOptions, runQueue, type RunFlags } from './run';

interface AddFlags {
  to: string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  out?: string;
  outputs: OutputSelection;
  force: boolean;
  json?: boolean;
}

interface Added {
  ids: number[];
  rejected: number;
  code: ExitCode;
}

/** Plans, checks credits, stores. Rejected inputs are reported; the valid rest of the batch goes ahead. */
async function addJobs(session: CliSession, inputs: string[], flags: AddFlags): Promise<Added> {
  const { engine } = session;
  const plan: Plan = await engine.plan({
    inputs,
    to: flags.to,
    from: flags.from,
    studio: flags.studio,
    api: flags.api,
    outputs: flags.outputs,
    ...(flags.out ? { outDir: flags.out } : {}),
  });
  reportRejected(plan);
  if (plan.jobs.length === 0) {
    process.stderr.write('dubdesk: nothing to add.\n');
    return { ids: [], rejected: plan.rejected.length, code: ExitCode.Usage };
  }
  const needed = plan.estimate.credits;
  const balance = await balanceOrWarn(engine, flags.api);
  if (balance !== null && !flags.force && (balance <= 0 || needed > balance)) {
    process.stderr.write(
      `dubdesk: this batch needs about ${needed} credits (1 credit = 1 second${flags.studio ? ', studio quality counts double' : ''}); the balance is ${balance}. ` +
        'Add credits, dub fewer files or languages, or pass --force to queue it anyway.\n',
    );
    return { ids: [], rejected: plan.rejected.length, code: ExitCode.Credits };
  }
  const r = engine.add(plan);
  if (!flags.json) {
    const unknown = plan.estimate.unknown ? ` (+${plan.estimate.unknown} URL job(s) of unknown length)` : '';
    const of = balance !== null ? ` of ${balance} available` : '';
    process.stderr.write(
      `Queued ${r.added.length} job(s)${r.retried.length ? `, retrying ${r.retried.length}` : ''}${r.existing.length ? `, ${r.existing.length} already queued` : ''}; about ${needed} credits${unknown}${of}.\n`,
    );
  }
  return {
    ids: [...r.added, ...r.retried, ...r.existing],
    rejected: plan.rejected.length,
    code: plan.rejected.length ? ExitCode.Failed : ExitCode.Ok,
  };
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
    .option('--force', 'queue even if the estimate exceeds the credit balance', false)
    .option('--json', 'print a JSON document on stdout', false);
}

export function registerAddCommands(program: Command): void {
  addJobOptions(
    program.command('add').description('Queue files, folders or URLs to dub into the target languages'),
  ).action(async (inputs: string[], flags: AddFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      const added = await addJobs(s, inputs, flags);
      if (flags.json) printJson({ jobs: added.ids, rejected: added.rejected });
      return added.code;
    });
  });

  addRunOptions(
    addJobOptions(program.command('dub').description('Add, then run the queue until every job is done')),
  ).action(async (inputs: string[], flags: AddFlags & RunFlags, cmd: Command) => {
    process.exitCode = await withSession(cmd, { needsService: true, quiet: flags.json }, async (s) => {
      const added = await addJobs(s, inputs, flags);
      if (added.ids.length === 0) return added.code;
      const code = await runQueue(s, { ...flags, untilDone: true }, added.ids);
      return code === ExitCode.Ok && added.rejected ? ExitCode.Failed : code;
    });
  });
}

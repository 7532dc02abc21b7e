import { Option, type Command } from 'commander';
import type { ApiGeneration } from '../../../shared/domain';
import { creditsFor } from '../../../shared/credits';
import { balanceOrWarn, reportRejected } from '../balance';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { formatDuration, printJson, table } from '../format';
import { languageList } from '../options';

interface EstimateFlags {
  to: string[];
  from: string;
  studio: boolean;
  api: ApiGeneration;
  json: boolean;
}

export function registerEstimateCommand(program: Command): void {
  program
    .command('estimate')
    .description('What a batch would cost in credits, against the balance (nothing is queued)')
    .argument('<sources...>', 'video or audio files, or folders of them')
    .requiredOption('--to <langs>', 'target languages, comma-separated', languageList)
    .option('--from <lang>', 'source language', 'auto')
    .option('--studio', 'studio quality (costs 2x credits)', false)
    .addOption(
      new Option('--api <generation>', 'service generation').choices(['v2', 'v1', 'legacy']).default('v2'),
    )
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (inputs: string[], flags: EstimateFlags, cmd: Command) => {
      process.exitCode = await withSession(
        cmd,
        { needsService: true, quiet: flags.json },
        async ({ engine }) => {
          const plan = await engine.plan({
            inputs,
            to: flags.to,
            from: flags.from,
            studio: flags.studio,
            api: flags.api,
            outputs: 'default',
          });
          reportRejected(plan);
          const balance = await balanceOrWarn(engine, flags.api);
          const files = new Map<string, { path: string; durationSeconds: number | null }>();
          for (const j of plan.jobs) files.set(j.source, { path: j.source, durationSeconds: j.duration });
          const perFile = [...files.values()].map((f) => ({
            ...f,
            creditsPerLanguage:
              f.durationSeconds === null ? null : creditsFor(f.durationSeconds, flags.studio),
          }));
          const result = {
            files: perFile,
            languages: flags.to,
            studio: flags.studio,
            jobs: plan.jobs.length,
            credits: plan.estimate.credits,
            unknownLengthJobs: plan.estimate.unknown,
            balance,
            enough: balance === null ? null : plan.estimate.credits <= balance,
            rejected: plan.rejected.map((r) => ({ source: r.source, message: r.message })),
          };
          if (flags.json) printJson(result);
          else {
            const rows = [['FILE', 'LENGTH', `CREDITS × ${flags.to.length} LANG`]];
            for (const f of perFile)
              rows.push([
                f.path,
                f.durationSeconds === null ? '?' : formatDuration(f.durationSeconds),
                String(f.creditsPerLanguage ?? '?'),
              ]);
            process.stdout.write(`${table(rows)}\n\n`);
            process.stdout.write(
              `${plan.jobs.length} job(s): about ${plan.estimate.credits} credits${flags.studio ? ' (studio quality, 2x)' : ''}.`,
            );
            if (balance !== null)
              process.stdout.write(` Balance: ${balance}${result.enough ? '.' : ' — not enough.'}`);
            process.stdout.write(
              '\nThe charge is the duration the service measures, once per dub, when it completes.\n',
            );
          }
          if (plan.jobs.length === 0) return ExitCode.Usage;
          return plan.rejected.length ? ExitCode.Usage : ExitCode.Ok;
        },
      );
    });
}

import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { JobState } from '../../../shared/contract/jobs';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { ids, reportAction, selection, usage, type SelectFlags } from './job-actions';
import { nothingToMove, reportCompleted } from './retry-report';

/** `dubdesk retry`: failed or canceled jobs again, from where they stopped (or into another folder). */
export function registerRetryCommand(program: Command): void {
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
      let workedElsewhere = false;
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const r = await api.retryJobs(outDir ? { ...sel, outDir } : sel);
        queued = r.changed.length;
        // Another Dubdesk (the app, `dubdesk serve`, a `dubdesk run`) working the queue starts them itself.
        if (queued > 0) workedElsewhere = (await api.totals()).running;
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
        process.stderr.write(
          workedElsewhere
            ? 'Dubdesk is working the queue: they start there.\n'
            : 'Run `dubdesk run` to work them.\n',
        );
    });
}

import type { Command } from 'commander';
import type { JobState } from '../../../shared/contract/jobs';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';

/** `dubdesk clear`: finished jobs off the list, their files left where they are. */
export function registerClearCommand(program: Command): void {
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
}

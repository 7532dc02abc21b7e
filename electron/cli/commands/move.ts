import { Option, type Command } from 'commander';
import { plural } from '../../../shared/format';
import type { MoveTarget } from '../../../shared/contract/queue';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { jobRange, printJson } from '../format';
import { jobId } from '../options';

interface MoveFlags {
  top?: boolean;
  bottom?: boolean;
  before?: number;
  json: boolean;
}

/** `--top`, `--bottom` or `--before ID`: exactly one. */
function targetOf(flags: MoveFlags, cmd: Command): MoveTarget {
  const given = [flags.top, flags.bottom, flags.before !== undefined].filter(Boolean).length;
  if (given !== 1) cmd.error('error: say where to move them: --top, --bottom or --before ID (one of them)');
  if (flags.top) return 'top';
  if (flags.bottom) return 'bottom';
  return { before: flags.before ?? 0 };
}

export function registerMoveCommand(program: Command): void {
  program
    .command('move')
    .description('Move queued jobs in the order they are sent (a job already uploading stays where it is)')
    .argument('<ids...>', 'job ids (see `dubdesk status`)', (raw: string, previous: number[] = []) => [
      ...previous,
      jobId(raw),
    ])
    .addOption(new Option('--top', 'to the front of the queue: sent next').conflicts(['bottom', 'before']))
    .addOption(new Option('--bottom', 'to the end of the queue').conflicts('before'))
    .addOption(new Option('--before <id>', 'just before this job').argParser(jobId))
    .option('--json', 'print what moved as JSON on stdout', false)
    .action(async (ids: number[], flags: MoveFlags, cmd: Command) => {
      const to = targetOf(flags, cmd);
      process.exitCode = await withSession(
        cmd,
        { needsService: false, quiet: flags.json },
        async ({ api }) => {
          const r = await api.moveJobs({ ids, to });
          if (flags.json) printJson(r);
          else {
            const where =
              to === 'top' ? 'to the top' : to === 'bottom' ? 'to the bottom' : `before #${to.before}`;
            if (r.moved.length)
              process.stderr.write(
                `Moved ${plural(r.moved.length, 'job')} ${where}: ${jobRange(r.moved)}.\n`,
              );
            if (r.stayed.length)
              process.stderr.write(
                `${plural(r.stayed.length, 'job')} stayed where ${r.stayed.length === 1 ? 'it was' : 'they were'} (already sending, at the service, or finished): ${jobRange(r.stayed)}.\n`,
              );
            if (r.missing.length)
              process.stderr.write(
                `dubdesk: no such job: ${jobRange(r.missing)} (see \`dubdesk status\`).\n`,
              );
          }
          return r.missing.length ? ExitCode.Usage : r.moved.length ? ExitCode.Ok : ExitCode.Failed;
        },
      );
    });
}

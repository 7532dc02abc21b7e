import type { Command } from 'commander';
import { plural } from '../../../shared/format';
import { withSession } from '../context';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { printable } from '../format';
import { jobId, positiveInt } from '../options';

/** `dubdesk logs`: a job's history and its recent log lines. */
export function registerLogsCommand(program: Command): void {
  program
    .command('logs')
    .description("A job's history and its recent log lines (attach them when reporting a problem)")
    .argument('<id>', 'job id', jobId)
    .option('--lines <n>', 'how many log lines', positiveInt, 50)
    .action(async (id: number, flags: { lines: number }, cmd: Command) => {
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const job = await api.getJob({ id });
        process.stdout.write(
          `#${job.id} ${printable(job.source)} → ${job.destLang} (${job.api}): ${job.state}\n`,
        );
        if (job.error) process.stdout.write(`  ${describeError(job.error)}\n`);
        process.stdout.write('History:\n');
        for (const h of job.history)
          process.stdout.write(
            `  ${h.at}  ${h.from ?? '-'} → ${h.to}  ${h.event}${h.reason ? `: ${printable(h.reason)}` : ''}\n`,
          );
        const { lines } = await api.jobLog({ id, limit: flags.lines });
        process.stdout.write(`Log (${plural(lines.length, 'line')}):\n`);
        for (const l of lines)
          process.stdout.write(`  ${l.at}  ${l.level.padEnd(5)}  ${printable(l.message)}\n`);
        return ExitCode.Ok;
      });
    });
}

import type { Command } from 'commander';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { printJson, statusJson, table } from '../format';
import { jobId } from '../options';

export function registerStatusCommands(program: Command): void {
  program
    .command('status')
    .description('List the jobs and where each one is')
    .option('--json', 'print a JSON document on stdout', false)
    .action(async (flags: { json: boolean }, cmd: Command) => {
      await withSession(cmd, { needsService: false }, async ({ engine }) => {
        const jobs = engine.list();
        if (flags.json) return printJson(statusJson(jobs));
        if (jobs.length === 0)
          return void process.stdout.write(
            'The queue is empty. Add files with `dubdesk add FILE --to es`.\n',
          );
        const rows = [['ID', 'SOURCE', 'LANG', 'API', 'STATE', 'PROGRESS', 'NOTE']];
        for (const j of jobs) {
          const note =
            j.error ?? j.waiting ?? (j.state === 'completed' ? j.outputs.map((o) => o.path).join(', ') : '');
          rows.push([
            String(j.id),
            j.sourceName,
            j.destLang,
            j.api,
            j.state,
            `${Math.round(j.progress)}%`,
            note,
          ]);
        }
        process.stdout.write(`${table(rows)}\n`);
        const paused = engine.queuePaused();
        if (paused)
          process.stdout.write(
            `\nThe queue is paused: ${paused === 'credits' ? 'out of credits' : paused}.\n`,
          );
      });
    });

  program
    .command('retry')
    .description(
      'Try a failed or canceled job again from where it stopped (a finished dub is not paid twice)',
    )
    .argument('[id]', 'job id', jobId)
    .option('--failed', 'retry every failed job', false)
    .action(async (id: number | undefined, flags: { failed: boolean }, cmd: Command) => {
      if ((id === undefined) === !flags.failed) {
        process.stderr.write('dubdesk retry: give a job id, or --failed for all failed jobs.\n');
        process.exitCode = ExitCode.Usage;
        return;
      }
      await withSession(cmd, { needsService: false }, async ({ engine }) => {
        const ids = id !== undefined ? [engine.retry(id).id] : engine.retryFailed();
        process.stderr.write(
          ids.length
            ? `Queued again: ${ids.map((i) => `#${i}`).join(', ')}. Run \`dubdesk run\` to work them.\n`
            : 'No failed jobs.\n',
        );
      });
    });

  program
    .command('cancel')
    .description('Stop a job for good (a dub already made on the service is simply not downloaded)')
    .argument('<id>', 'job id', jobId)
    .action(async (id: number, _flags: unknown, cmd: Command) => {
      await withSession(cmd, { needsService: false }, async ({ engine }) => {
        const j = engine.cancel(id);
        process.stderr.write(`Canceled #${j.id} ${j.sourceName} → ${j.destLang}.\n`);
      });
    });
}

import type { Command } from 'commander';
import { withSession } from '../context';
import { ExitCode } from '../exit-codes';
import { STARTED_DUBS_GO_ON } from '../status-view';
import { ids, reportAction } from './job-actions';

/** `dubdesk pause` and `dubdesk resume`: jobs, or the whole queue without ids. */
export function registerPauseResumeCommands(program: Command): void {
  for (const [name, verb] of [
    ['pause', 'Pause'],
    ['resume', 'Resume'],
  ] as const) {
    program
      .command(name)
      .description(
        name === 'pause'
          ? 'Pause jobs, or the whole queue without ids (a running step finishes first)'
          : 'Resume paused jobs, or the whole queue without ids',
      )
      .argument('[ids...]', 'job ids; none: the whole queue', ids, [])
      .action(async (given: number[], _flags: unknown, cmd: Command) => {
        process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
          if (given.length === 0) {
            const t = name === 'pause' ? await api.pauseQueue() : await api.resumeQueue();
            process.stderr.write(
              t.paused
                ? `The queue is paused; running steps finish first. ${STARTED_DUBS_GO_ON}\n`
                : 'The queue goes on.\n',
            );
            return ExitCode.Ok;
          }
          const r =
            name === 'pause' ? await api.pauseJobs({ ids: given }) : await api.resumeJobs({ ids: given });
          const code = await reportAction(api, r, `${verb}d`, `No job to ${name}.`);
          if (name === 'pause') {
            const jobs = await Promise.all(r.changed.map((id) => api.getJob({ id })));
            if (jobs.some((j) => j.remoteId !== null && j.creditsCharged === null))
              process.stderr.write(`${STARTED_DUBS_GO_ON}\n`);
          }
          return code;
        });
      });
  }
}

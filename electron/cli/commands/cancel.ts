import type { Command } from 'commander';
import type { JobFilter } from '../../../shared/contract/jobs';
import { withSession } from '../context';
import { jobRange } from '../format';
import { ids, reportAction, selection, usage, type SelectFlags } from './job-actions';

/** Canceled jobs whose dub the service had started: what it may still cost, and what Dubdesk does about it. */
function startedNote(ids: readonly number[]): string {
  const which =
    ids.length === 1 ? `Job #${ids[0]}'s dub was` : `${ids.length} of these dubs (${jobRange(ids)}) were`;
  return `${which} already started (or being started) on the service, which cannot stop a dub: it may still charge for ${ids.length === 1 ? 'it when it completes' : 'them when they complete'}. Dubdesk follows ${ids.length === 1 ? 'it' : 'them'} while it works the queue and records any charge in the job's history; \`dubdesk retry\` then fetches the results at no further charge.`;
}

/** `dubdesk cancel`: jobs stopped for good. */
export function registerCancelCommand(program: Command): void {
  program
    .command('cancel')
    .description(
      'Stop jobs for good (a dub the service already started cannot be stopped there: it may still be charged)',
    )
    .argument('[ids...]', 'job ids', ids, [])
    .option('--all', 'every job not yet finished', false)
    .option('--failed', 'every failed job (they stop being retried)', false)
    .action(async (given: number[], flags: SelectFlags, cmd: Command) => {
      const byFlag: JobFilter | null = flags.all
        ? { states: ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused', 'failed'] }
        : flags.failed
          ? { states: ['failed'] }
          : null;
      const sel = selection(given, byFlag);
      if (!sel)
        return usage(
          'dubdesk cancel: give job ids, or --all / --failed (not both). See `dubdesk cancel --help`.',
        );
      process.exitCode = await withSession(cmd, { needsService: false }, async ({ api }) => {
        const r = await api.cancelJobs(sel);
        const code = await reportAction(api, r, 'Canceled', 'No job to cancel.');
        const started = r.startedAtService ?? [];
        if (started.length) process.stderr.write(`${startedNote(started)}\n`);
        return code;
      });
    });
}

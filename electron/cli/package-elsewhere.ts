import { setTimeout as sleep } from 'node:timers/promises';
import type { DubdeskApi } from '../../shared/contract/methods';
import { ExitCode } from './exit-codes';
import { printHandedOn } from './handed-on';
import { allJobs } from './commands/run';

/** How often a package another Dubdesk makes is looked at. */
const LOOK_EVERY_MS = 500;

/**
 * `dubdesk package` while another Dubdesk (`serve`, the app, a `run`) works the queue: that one makes the
 * packages asked for. Waits until none of these jobs' sources has its package waiting or being made, then
 * says what became of each, as a run does. Stops waiting, saying so, if no Dubdesk works the queue any more.
 */
export async function followPackagesElsewhere(api: DubdeskApi, ids: readonly number[]): Promise<ExitCode> {
  process.stderr.write(
    'Another Dubdesk works this queue: it makes the package; waiting for it (Ctrl+C stops waiting, not the package).\n',
  );
  for (;;) {
    const { sources } = await api.listSources({ filter: { ids: [...ids] }, offset: 0, limit: 500 });
    const open = sources.filter((s) => s.package?.state === 'waiting' || s.package?.state === 'making');
    if (open.length === 0) break;
    if (!(await api.totals()).running) {
      process.stderr.write(
        'dubdesk: the Dubdesk that worked this queue stopped before making the package; `dubdesk package` again makes it (no charge).\n',
      );
      return ExitCode.Failed;
    }
    await sleep(LOOK_EVERY_MS);
  }
  const finished = (await allJobs(api, ids)).filter((j) => j.state === 'completed');
  return (await printHandedOn(api, finished)) > 0 ? ExitCode.Failed : ExitCode.Ok;
}

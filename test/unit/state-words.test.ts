/**
 * A job's phase is named the same wherever it is shown beside its one number (issue 31.6): the window's chips
 * and job panel, the CLI's lines, the tray and the desktop's notices. The CLI said "queued" and "in the
 * service queue" where the window said "waiting" and "in the service’s queue", and the tray counted jobs
 * without the window's grouping ("1234 left" beside "1,234 jobs").
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { followProgress } from '../../electron/cli/progress';
import { statusLine } from '../../electron/main/queue-status';
import { stateWords } from '../../renderer/src/store/derived';
import { formatCount } from '../../renderer/src/format';
import type { EngineEvent } from '../../shared/contract/events';
import { isTerminal, JOB_STATES, type JobState } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { jobView } from '../helpers/job-view';
import { totals } from './desktop/fixtures';
import { loadTextWidth } from '../../electron/cli/text-width';

// The CLI loads its text layout before a command's action runs; here, before the tests.
beforeAll(loadTextWidth);

afterEach(() => vi.restoreAllMocks());

/** The lines `dubdesk run` prints to a pipe for one job moving through `states`. */
function cliLines(states: readonly JobState[]): string[] {
  const engine = new EventTarget();
  const api = {
    subscribe(l: (e: EngineEvent) => void) {
      const each = (e: Event) => l((e as CustomEvent<EngineEvent>).detail);
      engine.addEventListener('event', each);
      return () => engine.removeEventListener('event', each);
    },
  } as Pick<DubdeskApi, 'subscribe'> as DubdeskApi;
  const said: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    said.push(String(chunk));
    return true;
  });
  const progress = followProgress(api, 'plain', [], () => true);
  for (const state of states)
    engine.dispatchEvent(
      new CustomEvent('event', {
        detail: { type: 'job', job: jobView('talk.mp4', { state, progress: 50, completedAt: null }) },
      }),
    );
  progress.stop();
  vi.restoreAllMocks();
  return said.map((l) => l.trimEnd());
}

describe('a job’s phase, in every face’s words', () => {
  it('the CLI names each unfinished state as the window’s chips and job panel do', () => {
    const open = JOB_STATES.filter((s) => !isTerminal(s));
    expect(cliLines(open)).toEqual(open.map((s) => `  #7 talk.mp4 → es: ${stateWords(s)}`));
  });

  it('the tray counts what is left as the window’s header does', () => {
    const t = totals({ left: 1234, total: 1234, counts: { queued: 1234 } });
    expect(statusLine(t)).toBe(`${formatCount(1234)} left`);
    expect(statusLine({ ...t, paused: { reason: 'user', message: 'paused' } })).toBe(
      `${stateWords('paused')} · 1,234 left`,
    );
  });
});

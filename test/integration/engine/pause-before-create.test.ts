/**
 * A pause is the user saying "spend nothing more". A v2 create is preceded by a list call (where the create
 * will stand among the service's dubs, and, after a lost answer, the look for its dub): a pause that lands
 * while that call is under way must stop the job before the create is sent. The sandbox holds its list
 * answers (`holdLists`) so the pause lands there every time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DubdeskHost } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const HEARD = { timeout: 20_000, interval: 20 };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

let n = 0;
async function setUp(faults: { holdLists?: boolean } = {}) {
  const sb: Sandbox = await startSandbox({ pipelineSeconds: 0.3, balance: 1000, ffmpeg: false, faults });
  cleanup.push(() => sb.stop());
  const host: DubdeskHost = engineFor(sb);
  cleanup.push(() => host.close());
  const name = `pause-race-${++n}.mp4`;
  const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
  return { sb, host, api: host.api, id: added[0] ?? 0 };
}

/** The dubs the service made and the charges it took: after the resume, exactly one of each. */
async function resumedToOneDub(sb: Sandbox, host: DubdeskHost, id: number) {
  expect(await host.run(quickRun(1))).toBe('done');
  const job = await host.api.getJob({ id });
  expect(job.state).toBe('completed');
  expect([...sb.state.dubs.keys()]).toEqual([job.remoteId]);
  expect(sb.state.ledger.map((c) => c.dubId)).toEqual([job.remoteId]);
}

describe('a pause while the list before a v2 create is under way', () => {
  it('of the queue: the create is never sent; on resume the file is dubbed once', async () => {
    const { sb, host, api, id } = await setUp({ holdLists: true });
    const run = host.run(quickRun(1));
    // The list asked just before the create (its mark), held by the service.
    await vi.waitFor(() => expect(sb.faults.held.lists.now).toBe(1), HEARD);
    await api.pauseQueue();
    sb.setFaults({ holdLists: false });

    // The step ended and the run saw nothing more to follow: the queue is paused, nothing was spent.
    expect(await run).toBe('paused');
    expect(sb.state.dubs.size).toBe(0);
    expect((await api.getJob({ id })).state).toBe('queued');

    await api.resumeQueue();
    await resumedToOneDub(sb, host, id);
  }, 60_000);

  it('of the job: the create is never sent, the job is paused; on resume it is dubbed once', async () => {
    const { sb, host, api, id } = await setUp({ holdLists: true });
    const stop = new AbortController();
    const run = host.run({ ...quickRun(1), untilDone: false, signal: stop.signal });
    await vi.waitFor(() => expect(sb.faults.held.lists.now).toBe(1), HEARD);
    await api.pauseJobs({ ids: [id] });
    sb.setFaults({ holdLists: false });

    await whenJob(api, (j) => j.id === id && j.state === 'paused');
    stop.abort();
    await run;
    expect(sb.state.dubs.size).toBe(0);

    await api.resumeJobs({ ids: [id] });
    await resumedToOneDub(sb, host, id);
  }, 60_000);

  it('after a create that never reached the service: the look for its dub is paused, nothing is sent', async () => {
    const { sb, host, api, id } = await setUp({ holdLists: true });
    const run = host.run(quickRun(1));
    // The first create is dropped before the service does anything: its answer is lost, no dub exists.
    await vi.waitFor(() => expect(sb.faults.held.lists.now).toBe(1), HEARD);
    sb.setFaults({ rateReset: 1, holdLists: false });
    await vi.waitFor(() => expect(sb.faults.fired.rateReset).toBeGreaterThan(0), HEARD);
    // The next attempt first looks for that dub: its list is held, and the queue is paused meanwhile.
    sb.setFaults({ rateReset: 0, holdLists: true });
    await vi.waitFor(() => expect(sb.faults.held.lists.now).toBe(1), HEARD);
    await api.pauseQueue();
    sb.setFaults({ holdLists: false });

    expect(await run).toBe('paused');
    expect(sb.state.dubs.size).toBe(0);
    expect(sb.state.ledger).toHaveLength(0);

    await api.resumeQueue();
    await resumedToOneDub(sb, host, id);
  }, 60_000);
});

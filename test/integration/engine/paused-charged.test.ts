/**
 * The service has no pause: a dub it started goes on and is charged when it completes. A pause (of the
 * queue, or of one job) stops Dubdesk starting work, not following the dubs already on the service: their
 * charge is recorded as the sandbox's ledger has it, "committed" drops, the balance is read again, and what
 * completed meanwhile shows as done at the service and downloads on resume.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import type { EngineEvent } from '../../../shared/contract/events';
import type { QueueTotals } from '../../../shared/contract/queue';
import { videoMp4 } from '../../helpers/media';
import { engineFor, quickRun, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { running } from '../../helpers/watch';

const HEARD = { timeout: 20_000, interval: 50 };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setUp() {
  const sb: Sandbox = await startSandbox({ pipelineSeconds: 2, balance: 100, ffmpeg: false });
  cleanup.push(() => sb.stop());
  const host = engineFor(sb);
  cleanup.push(() => host.close());
  const events: EngineEvent[] = [];
  host.api.subscribe((e) => events.push(e));
  const lastTotals = (): QueueTotals | undefined =>
    events.findLast((e): e is Extract<EngineEvent, { type: 'totals' }> => e.type === 'totals')?.totals;
  return { sb, host, api: host.api, lastTotals };
}

describe('a pause while dubs are on the service', () => {
  it('of the queue: started dubs are followed and charged, the rest waits, downloads come on resume', async () => {
    const { sb, host, api, lastTotals } = await setUp();
    const added = await api.add({
      inputs: [videoMp4(3, 'q1.mp4'), videoMp4(4, 'q2.mp4'), videoMp4(5, 'q3.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    const [first = 0] = added.added;
    const processing = whenJob(api, (j) => j.id === first && j.state === 'processing');
    const run = running(host);
    cleanup.push(() => run.stop());
    await processing;
    await api.pauseQueue();
    // A create already on its way when the pause came is the step in progress: it ends (its dub made) or
    // stops before sending; a pause never cuts a request. Then the dubs the service has go on there.
    await vi.waitFor(async () => {
      const jobs = (await api.listJobs({ filter: {}, offset: 0, limit: 10 })).jobs;
      expect(jobs.filter((j) => j.state === 'uploading')).toEqual([]);
    }, HEARD);
    const started = sb.state.dubs.size;
    expect(started).toBeGreaterThan(0);
    expect(sb.state.ledger).toHaveLength(0);

    // The service completes and charges them; Dubdesk records each charge though the queue is paused.
    await vi.waitFor(() => expect(sb.state.ledger).toHaveLength(started), HEARD);
    const charged = sb.state.ledger.reduce((n, c) => n + c.seconds, 0);
    await vi.waitFor(async () => {
      const t = await api.totals();
      expect(t.creditsCharged).toBe(charged);
      expect(lastTotals()?.balance).toBe(100 - charged);
    }, HEARD);
    const done = (await api.listJobs({ filter: {}, offset: 0, limit: 10 })).jobs.filter(
      (j) => j.creditsCharged !== null,
    );
    expect(done).toHaveLength(started);
    for (const j of done) {
      expect(j.state).toBe('downloading');
      expect(j.waiting?.message).toMatch(/done at the service.*download paused/);
      expect(j.outputs).toEqual([]);
    }
    // Nothing new was started meanwhile.
    expect(sb.state.dubs.size).toBe(started);

    await api.resumeQueue();
    await vi.waitFor(async () => {
      const jobs = (await api.listJobs({ filter: {}, offset: 0, limit: 10 })).jobs;
      expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    }, HEARD);
    const total = sb.state.ledger.reduce((n, c) => n + c.seconds, 0);
    expect((await api.totals()).creditsCharged).toBe(total);
    // A charge recorded after the last balance read stays committed until the read it asks for answers
    // (counted once: in the balance or in committed); under load that answer may come after the last job.
    await vi.waitFor(async () => {
      expect(lastTotals()?.balance).toBe(100 - total);
      expect((await api.totals()).creditsCommitted).toBe(0);
    }, HEARD);
  }, 60_000);

  it('of one job: its dub is followed, charged, shown done at the service, and downloaded on resume', async () => {
    const { sb, host, api, lastTotals } = await setUp();
    const added = await api.add({ inputs: [videoMp4(3, 'one.mp4')], to: ['es'], outDir: tempDir() });
    const [id = 0] = added.added;
    const processing = whenJob(api, (j) => j.id === id && j.state === 'processing');
    const run = running(host);
    cleanup.push(() => run.stop());
    await processing;
    await api.pauseJobs({ ids: [id] });
    await whenJob(api, (j) => j.id === id && j.state === 'paused');

    await vi.waitFor(() => expect(sb.state.ledger).toHaveLength(1), HEARD);
    const charged = sb.state.ledger[0]?.seconds ?? NaN;
    await vi.waitFor(async () => {
      const job = await api.getJob({ id });
      expect(job.state).toBe('paused');
      expect(job.creditsCharged).toBe(charged);
      expect(job.waiting?.message).toMatch(/done at the service.*download paused/);
      expect(lastTotals()?.balance).toBe(100 - charged);
      expect(lastTotals()?.creditsCommitted).toBe(0);
    }, HEARD);

    await run.stop();
    await api.resumeJobs({ ids: [id] });
    expect(await host.run(quickRun(1))).toBe('done');
    const done = await api.getJob({ id });
    expect(done).toMatchObject({ state: 'completed', creditsCharged: charged });
    expect(done.outputs.length).toBeGreaterThan(0);
    expect(done.outputs.every((o) => existsSync(o.path))).toBe(true);
    expect(sb.state.ledger).toHaveLength(1);
  }, 60_000);
});

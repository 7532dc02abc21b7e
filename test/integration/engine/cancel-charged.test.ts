/**
 * The service has no way to stop a dub and charges when it completes: a job canceled after its dub started
 * is still followed (in the polls it was already in) until the dub ends, and what the service charged is
 * recorded in its history, counted in "charged", and the balance is read again then.
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

describe('a job canceled after its dub started on the service', () => {
  it('is followed until the dub ends; the charge is in its history, the totals and the balance', async () => {
    const sb: Sandbox = await startSandbox({ pipelineSeconds: 2, balance: 100 });
    cleanup.push(() => sb.stop());
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const { api } = host;
    const events: EngineEvent[] = [];
    api.subscribe((e) => events.push(e));
    const lastTotals = (): QueueTotals | undefined =>
      events.findLast((e): e is Extract<EngineEvent, { type: 'totals' }> => e.type === 'totals')?.totals;

    const added = await api.add({ inputs: [videoMp4(3, 'cancel-late.mp4')], to: ['es'], outDir: tempDir() });
    const [id = 0] = added.added;
    const processing = whenJob(api, (j) => j.id === id && j.state === 'processing');
    const run = running(host);
    cleanup.push(() => run.stop());
    await processing;

    const canceled = await api.cancelJobs({ ids: [id] });
    expect(canceled.changed).toEqual([id]);
    // The engine says which canceled dubs the service may still charge for (the faces tell the user).
    expect(canceled.startedAtService).toEqual([id]);
    expect(sb.state.ledger).toHaveLength(0);

    // The service completes the dub and charges it; the engine notices in a poll, not a minute later.
    await vi.waitFor(() => expect(sb.state.ledger).toHaveLength(1), HEARD);
    const charged = sb.state.ledger[0]?.seconds ?? NaN;
    await vi.waitFor(async () => {
      const job = await api.getJob({ id });
      expect(job.state).toBe('canceled');
      expect(job.creditsCharged).toBe(charged);
      expect(job.history.at(-1)?.reason).toMatch(
        new RegExp(`the service charged ${charged} cr for this canceled dub`),
      );
    }, HEARD);
    await vi.waitFor(() => expect(lastTotals()?.balance).toBe(100 - charged), HEARD);
    expect((await api.totals()).creditsCharged).toBe(charged);

    // Paid once: a retry fetches the dub the service already made, at no further charge.
    await run.stop();
    await api.retryJobs({ ids: [id] });
    expect(await host.run(quickRun(1))).toBe('done');
    const done = await api.getJob({ id });
    expect(done).toMatchObject({ state: 'completed', creditsCharged: charged });
    expect(done.outputs.every((o) => existsSync(o.path))).toBe(true);
    expect(sb.state.ledger).toHaveLength(1);
  });
});

import { join } from 'node:path';
import { storeAt } from '../../helpers/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyAction } from '../../../electron/engine/app/queue/actions';
import { LeasedJob } from '../../../electron/engine/flows/context';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, faults: { latencyMs: 300 } });
});
afterAll(() => sb.stop());
afterEach(() => sb.faults.set({ rateReset: 0 }));

describe('a pause that meets the end of a step', () => {
  it('asked during a step that then fails in a way that waits: the job pauses, not waits for ever', async () => {
    const host = engineFor(sb, tempDir('dubdesk-pw-home-'));
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'pw.mp4')],
      to: ['es'],
      outDir: tempDir('dubdesk-pw-out-'),
    });
    const id = added[0] ?? 0;
    const running = host.run(quickRun());
    await whenJob(host.api, (j) => j.id === id && j.state === 'uploading');
    sb.faults.set({ rateReset: 1 }); // the create in flight is cut: a network wait
    const paused = await host.api.pauseJobs({ ids: [id] });
    expect(paused.changed).toEqual([id]); // a pause request: the worker holds the job
    // The step ends in a network wait; the pause asked meanwhile wins: paused, not queued for a retry.
    await whenJob(host.api, (j) => j.id === id && j.state === 'paused');
    sb.faults.set({ rateReset: 0 }); // the network is back
    // A run that went on waiting for the paused job would end on the test's own timeout.
    const outcome = await running;
    const job = await host.api.getJob({ id });
    // The run ends: a paused job waits for the user, not for the run.
    expect({ outcome, state: job.state }).toEqual({ outcome: 'done', state: 'paused' });
    await host.close();
  }, 30_000);

  it('read while a worker holds the job, written after the worker gave it back: the job pauses now', async () => {
    const home = tempDir('dubdesk-toctou-home-');
    const host = engineFor(sb, home);
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'toctou.mp4')],
      to: ['es'],
      outDir: tempDir('dubdesk-toctou-out-'),
    });
    const id = added[0] ?? 0;
    // The other process: its own connection. Its `pause` reads the row, then writes; the worker's `created`
    // commits exactly in between (the read is stalled until then).
    const otherStore = storeAt(join(home, 'dubdesk.db'));
    const origEnd = LeasedJob.prototype.end;
    let pauseResult: unknown;
    LeasedJob.prototype.end = function (this: LeasedJob, ...a: Parameters<LeasedJob['end']>) {
      if (a[0].type !== 'created') return origEnd.apply(this, a);
      const realShown = otherStore.reads.shown.bind(otherStore.reads);
      otherStore.reads.shown = (jid: number) => {
        const row = realShown(jid); // seen with the worker's lease
        origEnd.apply(this, a); // the worker's end: created + release, one commit
        return row;
      };
      pauseResult = applyAction(otherStore, [id], 'pause', () => {});
      otherStore.reads.shown = realShown;
    };
    const running = host.run(quickRun());
    const outcome = await running.finally(() => {
      LeasedJob.prototype.end = origEnd;
    });
    const job = otherStore.reads.get(id);
    expect(pauseResult).toMatchObject({ changed: [id] });
    expect({ outcome, state: job?.state, pending: job?.pause_requested }).toEqual({
      outcome: 'done',
      state: 'paused',
      pending: 0,
    });
    otherStore.db.close();
    await host.close();
  }, 30_000);
});

/**
 * A job canceled after its dub was made: the service goes on and charges that dub once, when it completes.
 * Adding the file again retries that job, which fetches the same dub: the service charges nothing more for
 * it. The estimate (`estimate`, `add`, the Add sheet: one method) must say so, not the price of a new dub.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const HEARD = { timeout: 30_000, interval: 50 };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('the file added again after its job was canceled with its dub made', () => {
  it('is estimated at what the service will charge for it: nothing more', async () => {
    // Dubs take long enough to be canceled while the service makes them.
    const sb = await startSandbox({ pipelineSeconds: 8, balance: 1000, ffmpeg: false });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    const file = videoMp4(7, 'canceled then added again.mp4');
    const outDir = tempDir();
    const { added } = await host.api.add({ inputs: [file], to: ['es'], outDir });
    const [id = 0] = added;
    const controller = new AbortController();
    const run = host.run({
      untilDone: false,
      concurrency: 1,
      pollIntervalMs: 200,
      signal: controller.signal,
    });
    await vi.waitFor(async () => expect((await host.api.getJob({ id })).remoteId).not.toBeNull(), HEARD);
    expect((await host.api.cancelJobs({ ids: [id] })).startedAtService).toEqual([id]);
    controller.abort();
    await run;
    const job = await host.api.getJob({ id });
    expect(job).toMatchObject({ state: 'canceled', creditsCharged: null });

    // Every face asks the same method: the window's Add sheet, `dubdesk estimate`, `dubdesk add`.
    const estimate = await host.api.estimate({ inputs: [file], to: ['es'], outDir });
    expect(estimate.credits).toBe(0);
    expect(estimate.files[0]).toMatchObject({ credits: 0, free: [{ lang: 'es', why: 'made' }] });
    const cli = await runCli(['estimate', file, '--to', 'es'], envFor(sb, home));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('0 (dub already made)');
    expect(cli.stdout).toMatch(/1 job: about 0 credits/);

    const again = await host.api.add({ inputs: [file], to: ['es'], outDir });
    expect(again).toMatchObject({ added: [], retried: [id], credits: 0 });
    expect(await host.run(quickRun(1))).toBe('done');
    expect(await host.api.getJob({ id })).toMatchObject({ state: 'completed' });
    // What the service charged: that one dub, once, as its job records; nothing for the retry.
    expect(sb.state.ledger).toHaveLength(1);
    expect((await host.api.getJob({ id })).creditsCharged).toBe(sb.state.ledger[0]?.seconds);
  });
});

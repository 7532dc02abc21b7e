/**
 * A cancel while the create is in flight: the service has made (v2) or started (v1, legacy) the dub and
 * will charge it, but its answer has not arrived. The canceled job must learn its dub and whether it was
 * charged, `cancel` must say it may be charged, and adding the file again fetches that dub, never a second.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { running } from '../../helpers/watch';

const HEARD = { timeout: 30_000, interval: 50 };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** What the service started of `name`, and what it charged for it. */
function startedOf(sb: Sandbox, name: string) {
  const dubs = [...sb.state.dubs.values()].filter((d) => d.name === name && d.queuedAt !== null);
  const ids = new Set(dubs.map((d) => d.id));
  return { dubs, charges: sb.state.ledger.filter((c) => ids.has(c.dubId)) };
}

/**
 * A job canceled while its create was in flight, once the canceled job has learned the dub the service made
 * and what it charged.
 */
async function canceledInFlight(api: ApiGeneration) {
  const sb = await startSandbox({ pipelineSeconds: 0.5, balance: 1000, faults: { holdCreates: true } });
  cleanup.push(() => sb.stop());
  const host = engineFor(sb);
  cleanup.push(() => host.close());
  const name = `in-flight-${api}.mp4`;
  const file = videoMp4(2, name);
  const outDir = tempDir();
  const { added } = await host.api.add({ inputs: [file], to: ['es'], api, outDir });
  const [id = 0] = added;
  const run = running(host);
  cleanup.push(() => run.stop());

  // The service made (or started) the dub; its answer is held.
  await vi.waitFor(() => expect(sb.faults.held.creates.now).toBe(1), HEARD);
  const canceled = await host.api.cancelJobs({ ids: [id] });
  expect(canceled.changed).toEqual([id]);
  // `cancel` says the service may still charge for it.
  expect(canceled.startedAtService).toEqual([id]);
  sb.setFaults({ holdCreates: false });

  // The service completes and charges it; the canceled job learns which dub it was and what it cost.
  await vi.waitFor(() => expect(startedOf(sb, name).charges).toHaveLength(1), HEARD);
  const [dub] = startedOf(sb, name).dubs;
  const charged = startedOf(sb, name).charges[0]?.seconds;
  await vi.waitFor(async () => {
    const job = await host.api.getJob({ id });
    expect(job).toMatchObject({ state: 'canceled', remoteId: dub?.id, creditsCharged: charged });
  }, HEARD);
  await run.stop();
  return { sb, host, name, file, outDir, id };
}

describe.each<ApiGeneration>(['v2', 'v1', 'legacy'])('%s: a cancel while the create is in flight', (api) => {
  it('the job learns its dub and the charge; adding the file again fetches it, no second dub', async () => {
    const { sb, host, name, file, outDir, id } = await canceledInFlight(api);

    // Added again: that job is retried and fetches its dub; nothing more is made or charged.
    const again = await host.api.add({ inputs: [file], to: ['es'], api, outDir });
    expect(again).toMatchObject({ added: [], retried: [id] });
    expect(await host.run(quickRun(1))).toBe('done');
    expect((await host.api.getJob({ id })).state).toBe('completed');
    expect(startedOf(sb, name).dubs).toHaveLength(1);
    expect(startedOf(sb, name).charges).toHaveLength(1);
  });
});

describe('a cancel while the create is in flight, then the file added with --again', () => {
  it('is dubbed again on purpose: a new job, the canceled one keeps its dub and charge', async () => {
    const { host, file, outDir, id } = await canceledInFlight('v2');
    const again = await host.api.add({ inputs: [file], to: ['es'], outDir, again: true });
    expect(again.retried).toEqual([]);
    expect(again.added).toHaveLength(1);
    expect(again.added).not.toContain(id);
    expect((await host.api.getJob({ id })).state).toBe('canceled');
  });
});

/**
 * The service cannot stop a dub and charges it when it completes. A job canceled after its dub was made is
 * followed until the dub ends; when the service has already completed (and charged) it, the charge must be
 * known at the first read of that dub the engine makes at once, not whenever the polls' slowed pace comes
 * round again: meanwhile the credits charged, committed and `dubdesk spend` would all be wrong.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const HEARD = { timeout: 30_000, interval: 50 };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const listReads = (sb: Sandbox) => sb.state.requests.get('GET /api/v2/dubs') ?? 0;

/** A job whose dub the service has completed and charged, before the engine's polls have seen it. */
async function chargedUnseen(name: string) {
  const sb = await startSandbox({ pipelineSeconds: 1, balance: 1000, ffmpeg: false });
  cleanup.push(() => sb.stop());
  const home = tempDir();
  const host = engineFor(sb, home);
  cleanup.push(() => host.close());
  const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
  const [id = 0] = added;
  // Polls ten minutes apart: only a read the engine makes at once can learn of the charge in this test.
  const controller = new AbortController();
  const run = host.run({
    untilDone: false,
    concurrency: 1,
    pollIntervalMs: 600_000,
    signal: controller.signal,
  });
  cleanup.push(() => (controller.abort(), run));
  await vi.waitFor(async () => expect((await host.api.getJob({ id })).state).toBe('submitted'), HEARD);
  await vi.waitFor(() => expect(sb.state.ledger).toHaveLength(1), HEARD);
  const charged = sb.state.ledger[0]?.seconds;
  expect((await host.api.getJob({ id })).creditsCharged).toBeNull();
  return { sb, home, host, id, charged };
}

describe('a job canceled after the service completed (and charged) its dub', () => {
  it('in the window: the charge is recorded after one read of the list, made at once', async () => {
    const { sb, host, id, charged } = await chargedUnseen('charged before the cancel.mp4');
    const readsBefore = listReads(sb);

    const canceled = await host.api.cancelJobs({ ids: [id] });
    expect(canceled.startedAtService).toEqual([id]);

    await vi.waitFor(async () => {
      const job = await host.api.getJob({ id });
      expect(job).toMatchObject({ state: 'canceled', creditsCharged: charged });
    }, HEARD);
    expect(listReads(sb) - readsBefore).toBe(1);
    // The header: charged, and nothing more committed once the balance is read again after the charge.
    await vi.waitFor(async () => {
      expect(await host.api.totals()).toMatchObject({ creditsCharged: charged, creditsCommitted: 0 });
    }, HEARD);
  });

  it('from a terminal: `spend` shows the charge after one read by the process that works the queue', async () => {
    const { sb, home, id, charged } = await chargedUnseen('canceled from a terminal.mp4');
    const readsBefore = listReads(sb);
    const env = envFor(sb, home);

    const canceled = await runCli(['cancel', String(id)], env);
    expect(canceled.code, canceled.stderr).toBe(0);

    await vi.waitFor(async () => {
      const spend = await runCli(['spend', '--json'], env);
      expect(spend.code, spend.stderr).toBe(0);
      expect(spend.stdout).toContain(`"credits": ${charged}`);
    }, HEARD);
    expect(listReads(sb) - readsBefore).toBe(1);
  });
});

/**
 * Pay once where the real world differs from the tests' assumptions: a v2 create whose answer is lost is
 * looked up among the service's dubs before anything is made again. The service's clock, its way of
 * writing times and of storing names are its own; the lookup must find the dub whatever they are.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import type { FaultSettings } from '../../../electron/sandbox/options';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, startCli } from '../../helpers/cli';
import { engineFor as patientEngineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

/** A sandbox that loses every create's answer (the dub is made and saved first) with `faults` on. */
async function losingAnswers(faults: Partial<FaultSettings>): Promise<Sandbox> {
  const sb = await startSandbox({
    ffmpeg: false,
    pipelineSeconds: 0.3,
    balance: 10_000,
    faults: { rateLostResponse: 1, ...faults },
  });
  sandboxes.push(sb);
  return sb;
}

/** What the service made of a file called `name` (names compared as the service may store them). */
function madeOf(sb: Sandbox, name: string) {
  const same = (a: string) => a.normalize('NFC') === name.normalize('NFC');
  const dubs = [...sb.state.dubs.values()].filter((d) => same(d.name));
  const ids = new Set(dubs.map((d) => d.id));
  return { dubs, charges: sb.state.ledger.filter((c) => ids.has(c.dubId)) };
}

/** An engine with quick retries: a create made again shows within a second or two. */
const engineFor = (sb: Sandbox) =>
  openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 3,
  });

let n = 0;
const WAIT = { timeout: 50_000, interval: 100 };

describe('a lost v2 create, looked up on a service that differs from this machine', () => {
  it.each<[string, Partial<FaultSettings>, string]>([
    ['its clock 2.5 minutes behind', { clockSkewSeconds: -150 }, 'behind'],
    ['its clock 10 minutes behind (the laptop ahead)', { clockSkewSeconds: -600 }, 'far-behind'],
    ['its clock 10 minutes ahead', { clockSkewSeconds: 600 }, 'ahead'],
    ['times it writes that do not parse', { timestamps: 'unparseable' }, 'unparseable'],
    ['names it stores in NFC', { normalizeNames: 'NFC' }, 'Cafe\u0301'],
  ])('%s: the dub is found, never made twice, charged once', async (_how, faults, stem) => {
    const sb = await losingAnswers(faults);
    const host = engineFor(sb);
    const name = `${stem}-${++n}.mp4`;
    const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
    // Done, or a second dub made: then the run is stopped (it would go on paying while it waits to retry).
    const stop = new AbortController();
    const run = host.run({ ...quickRun(1), signal: stop.signal });
    let ended = false;
    void run.then(() => (ended = true));
    await vi.waitFor(() => expect(ended || madeOf(sb, name).dubs.length > 1).toBe(true), WAIT);
    stop.abort();
    const outcome = await run;
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();
    const made = madeOf(sb, name);
    expect(made.dubs).toHaveLength(1);
    expect(outcome).toBe('done');

    expect(sb.faults.fired.rateLostResponse).toBeGreaterThan(0);
    expect(`${job.state} ${job.error?.message ?? ''}`).toBe('completed ');
    expect(made.dubs.map((d) => d.id)).toEqual([job.remoteId]);
    expect(made.charges.map((c) => c.dubId)).toEqual([job.remoteId]);
  });

  it('times written without an offset, read by a user east of UTC (TZ=Asia/Tokyo): charged once', async () => {
    const sb = await losingAnswers({ timestamps: 'naive' });
    const name = `naive-tokyo-${++n}.mp4`;
    const env = { ...envFor(sb, tempDir()), TZ: 'Asia/Tokyo' };
    const cli = startCli(['dub', videoMp4(2, name), '--to', 'es', '--out', tempDir()], env);
    // Done, or a second dub made (then the run is stopped: it would go on paying until it gives up).
    let exited = false;
    void cli.done.then(() => (exited = true));
    await vi.waitFor(() => expect(exited || madeOf(sb, name).dubs.length > 1).toBe(true), WAIT);
    cli.child.kill('SIGKILL');
    const r = await cli.done;
    const made = madeOf(sb, name);
    expect(made.dubs).toHaveLength(1);
    expect(`${r.code} ${r.stderr}`).toMatch(/^0 /);
    expect(made.charges).toHaveLength(1);
  });
});

/**
 * The list answered 500 just before the create, so the create went without a mark: its lost answer's dub
 * is placed by the times the service writes, against its own clock (its `Date` header), never this
 * machine's. The list comes back once the dub is made, and the job looks for it again.
 */
describe("a lost v2 create sent while the list failed (no mark): placed on the service's clock", () => {
  it('its clock 10 minutes behind: the dub is found, charged once', async () => {
    const sb = await losingAnswers({ listFault: 'error', clockSkewSeconds: -600 });
    // Patient retries: the look for the lost answer's dub waits for the list to come back.
    const host = patientEngineFor(sb);
    const name = `no-mark-${++n}.mp4`;
    const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
    const run = host.run(quickRun(1));
    await vi.waitFor(() => expect(madeOf(sb, name).dubs).toHaveLength(1), WAIT);
    sb.setFaults({ listFault: 'none', rateLostResponse: 0 });
    expect(await run).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();
    const made = madeOf(sb, name);
    expect(made.dubs.map((d) => d.id)).toEqual([job.remoteId]);
    expect(job.state).toBe('completed');
    expect(made.charges).toHaveLength(1);
  });

  it('times it writes that do not parse: the job fails naming the account check, no second dub', async () => {
    const sb = await losingAnswers({ listFault: 'error', timestamps: 'unparseable' });
    const host = patientEngineFor(sb);
    const name = `no-mark-unparseable-${++n}.mp4`;
    const { added } = await host.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir() });
    const run = host.run(quickRun(1));
    await vi.waitFor(() => expect(madeOf(sb, name).dubs).toHaveLength(1), WAIT);
    sb.setFaults({ listFault: 'none', rateLostResponse: 0 });
    expect(await run).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/cannot tell which of the service's dubs is the one it made/);
    expect(job.error?.remedy).toMatch(/Check the dubs in your account/);
    expect(madeOf(sb, name).dubs).toHaveLength(1);
  });

  it('times written without an offset, read east of UTC (TZ=Asia/Tokyo): the dub is found, charged once', async () => {
    const sb = await losingAnswers({ listFault: 'error', timestamps: 'naive' });
    const name = `no-mark-tokyo-${++n}.mp4`;
    const env = { ...envFor(sb, tempDir()), TZ: 'Asia/Tokyo' };
    const cli = startCli(['dub', videoMp4(2, name), '--to', 'es', '--out', tempDir()], env);
    let exited = false;
    void cli.done.then(() => (exited = true));
    await vi.waitFor(() => expect(exited || madeOf(sb, name).dubs.length > 0).toBe(true), WAIT);
    sb.setFaults({ listFault: 'none', rateLostResponse: 0 });
    await vi.waitFor(() => expect(exited || madeOf(sb, name).dubs.length > 1).toBe(true), WAIT);
    cli.child.kill('SIGKILL');
    const r = await cli.done;
    const made = madeOf(sb, name);
    expect(made.dubs).toHaveLength(1);
    expect(`${r.code} ${r.stderr}`).toMatch(/^0 /);
    expect(made.charges).toHaveLength(1);
  });
});

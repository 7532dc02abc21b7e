/**
 * The credits a face shows are the service's: over a batch with successes, a failure and a cancel, the
 * balance in the totals (the event a header draws from, and the `totals` / `account` methods) equals the
 * sandbox's own ledger after each step, and "committed" is what is queued and not yet charged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openDubdesk } from '../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import type { EngineEvent } from '../../shared/contract/events';
import type { JobView } from '../../shared/contract/jobs';
import type { QueueTotals } from '../../shared/contract/queue';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';
import { serveFor } from '../helpers/serve';
import { HEARD, failsWith } from './checks';
import type { ContractHarness } from './harness';

type Make = (sb: Sandbox) => Promise<ContractHarness>;

const inProcess: Make = async (sb) => {
  const host = openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
    backoff: { baseMs: 50, capMs: 400 },
  });
  return {
    api: host.api,
    runUntilDone: () => host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 }),
    close: () => host.close(),
  };
};

const overHttp: Make = async (sb) => {
  const served = await serveFor(sb);
  return {
    api: served.client,
    runUntilDone: () => served.host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 }),
    close: () => served.close(),
  };
};

const SandboxState = z.object({
  accounts: z.array(z.object({ id: z.string(), seconds: z.number() })),
  ledger: z.array(z.object({ userId: z.string(), seconds: z.number() })),
});

describe.each([
  ['the in-process engine', inProcess],
  ['HTTP (dubdesk serve)', overHttp],
] as const)('the credits shown over %s', (_transport, make) => {
  let sb: Sandbox;
  let h: ContractHarness;
  const events: EngineEvent[] = [];

  beforeAll(async () => {
    // Long enough a pipeline to act while a dub is processing.
    sb = await startSandbox({ pipelineSeconds: 2, balance: 1000 });
    h = await make(sb);
    h.api.subscribe((e) => events.push(e));
  });
  afterAll(async () => {
    await h?.close();
    await sb?.stop();
  });

  /** The account as the sandbox's admin route tells it: its balance, and the sum of its charges. */
  async function ledger(): Promise<{ balance: number; charged: number }> {
    const res = await fetch(`${sb.baseUrl}/__sandbox/state`, {
      headers: { 'x-sandbox-admin': sb.adminToken },
    });
    const state = SandboxState.parse(await res.json());
    const me = state.accounts.find((a) => a.id === sb.account.id);
    const charged = state.ledger.filter((c) => c.userId === sb.account.id).reduce((n, c) => n + c.seconds, 0);
    return { balance: me?.seconds ?? NaN, charged };
  }

  const lastTotals = (): QueueTotals | undefined =>
    events.findLast((e): e is Extract<EngineEvent, { type: 'totals' }> => e.type === 'totals')?.totals;

  /** Estimated credits of the jobs not yet charged and still to run: what "committed" must be. */
  async function committedOf(): Promise<number> {
    const { jobs } = await h.api.listJobs({ limit: 500 });
    const live = (j: JobView) => !['completed', 'failed', 'canceled'].includes(j.state);
    return jobs
      .filter((j) => live(j) && j.creditsCharged === null)
      .reduce((n, j) => n + (j.estimatedCredits ?? 0), 0);
  }

  /**
   * After a step: the last totals event (what a header shows, without asking) carries the service's
   * balance, and the methods agree with the ledger. The methods are asked only once the event is right,
   * so they cannot be what fetched the balance.
   */
  async function agreesWithLedger(): Promise<QueueTotals> {
    const l = await ledger();
    await vi.waitFor(() => expect(lastTotals()?.balance).toBe(l.balance), HEARD);
    const t = await h.api.totals();
    const committed = await committedOf();
    expect({ balance: t.balance, charged: t.creditsCharged, committed: t.creditsCommitted }).toEqual({
      balance: l.balance,
      charged: l.charged,
      committed,
    });
    expect(t.creditsShort).toBe(Math.max(0, committed - l.balance));
    expect((await h.api.account()).balance).toBe(l.balance);
    return t;
  }

  const add = (name: string) =>
    h.api.add({ inputs: [videoMp4(2, name)], to: ['es'], outDir: tempDir('dubdesk-numbers-out-') });

  it('queued: the balance is untouched and the batch is committed, beside it, not taken off it', async () => {
    await add('numbers-a.mp4');
    const t = await agreesWithLedger();
    expect(t.creditsCommitted).toBeGreaterThan(0);
    expect(t.balance).toBe(1000);
  });

  it('a cancel takes its job out of "committed"; the balance stays the service\'s', async () => {
    const b = await add('numbers-b.mp4');
    const before = await committedOf();
    await h.api.cancelJobs({ ids: b.added });
    expect(await committedOf()).toBeLessThan(before);
    await agreesWithLedger();
  });

  it("a success is charged: the balance shown is the ledger's, nothing left committed", async () => {
    expect(await h.runUntilDone()).toBe('done');
    const t = await agreesWithLedger();
    expect(t.creditsCharged).toBeGreaterThan(0);
    expect(t.creditsCommitted).toBe(0);
  });

  it('a second success soon after the first is read again too (the last charge is never left out)', async () => {
    await add('numbers-c.mp4');
    expect(await h.runUntilDone()).toBe('done');
    await agreesWithLedger();
  });

  it('a failure the service charged anyway: read again after the failure, the numbers match the ledger', async () => {
    sb.setFaults({ rateDubFailure: 1 });
    const d = await add('numbers-d.mp4');
    const [id = 0] = d.added;
    const run = h.runUntilDone();
    // While the dub is in the service's hands, the service takes credits for it (as the real one did for
    // "failed-but-charged" dubs): nothing tells the engine but the balance itself.
    await vi.waitFor(() => {
      const seen = events.some((e) => e.type === 'job' && e.job.id === id && e.job.state === 'processing');
      expect(seen).toBe(true);
    }, HEARD);
    const took = await fetch(`${sb.baseUrl}/__sandbox/accounts/${sb.account.id}/balance`, {
      method: 'PUT',
      headers: { 'x-sandbox-admin': sb.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: (await ledger()).balance - 7 }),
    });
    expect(took.status).toBe(200);
    expect(await run).toBe('done');
    sb.setFaults({ rateDubFailure: 0 });
    expect((await h.api.getJob({ id })).state).toBe('failed');
    await agreesWithLedger();
    // Retried, it succeeds and is charged once.
    await h.api.retryJobs({ ids: d.added });
    expect(await h.runUntilDone()).toBe('done');
    await agreesWithLedger();
  });

  it('paused mid-batch: the dubs the service already has are charged and recorded, the rest stays committed', async () => {
    const added = (await Promise.all(['e', 'f', 'g'].map((n) => add(`numbers-${n}.mp4`)))).flatMap(
      (a) => a.added,
    );
    const run = h.runUntilDone();
    await vi.waitFor(() => {
      const seen = events.some(
        (e) => e.type === 'job' && added.includes(e.job.id) && e.job.state === 'processing',
      );
      expect(seen).toBe(true);
    }, HEARD);
    await h.api.pauseQueue();
    // The service has no pause: the run follows what it was making until it ended, then stops there.
    expect(await run).toBe('paused');
    const t = await agreesWithLedger();
    expect(t.paused?.reason).toBe('user');
    const charged = (await Promise.all(added.map((id) => h.api.getJob({ id })))).filter(
      (j) => j.creditsCharged !== null,
    );
    expect(charged.length).toBeGreaterThan(0);
    await h.api.resumeQueue();
    expect(await h.runUntilDone()).toBe('done');
    expect((await agreesWithLedger()).creditsCommitted).toBe(0);
  });
});

describe.each([
  ['the in-process engine', inProcess],
  ['HTTP (dubdesk serve)', overHttp],
] as const)('the balance guard of add over %s', (_transport, make) => {
  let sb: Sandbox;
  let h: ContractHarness;
  beforeAll(async () => {
    sb = await startSandbox({ pipelineSeconds: 2, balance: 10 });
    h = await make(sb);
  });
  afterAll(async () => {
    await h?.close();
    await sb?.stop();
  });

  it('counts what is already queued (committed) with the new batch against the balance; --force adds anyway', async () => {
    const out = tempDir('dubdesk-numbers-out-');
    const first = await h.api.add({ inputs: [videoMp4(6, 'guard-a.mp4')], to: ['es'], outDir: out });
    expect(first.added).toHaveLength(1);
    expect((await h.api.totals()).creditsCommitted).toBe(6);
    // 6 queued + 6 new = 12 against a balance of 10: refused, though 6 alone would fit.
    const over = await failsWith('credits', () =>
      h.api.add({ inputs: [videoMp4(6, 'guard-b.mp4')], to: ['es'], outDir: out }),
    );
    expect(over.message).toMatch(/needs about 6 credits.*6 already queued.*balance is 10/);
    expect(over.remedy).toMatch(/add it anyway/);
    expect(
      await h.api.estimate({ inputs: [videoMp4(6, 'guard-b.mp4')], to: ['es'], outDir: out }),
    ).toMatchObject({ balanceAfter: -2, overBalance: true });
    expect((await h.api.totals()).total).toBe(1);
    const forced = await h.api.add({
      inputs: [videoMp4(6, 'guard-b.mp4')],
      to: ['es'],
      outDir: out,
      force: true,
    });
    expect(forced.added).toHaveLength(1);
    expect(sb.state.ledger).toHaveLength(0);
  });
});

/**
 * The credit numbers every face shows (issue 31.4), watched through a whole run against the sandbox and
 * across a restart, on every `totals` event a header draws from:
 * - committed: the estimates of the queue's work not yet charged, and the charges recorded since the
 *   balance shown was read;
 * - balance: the service's own figure, read again once charges land.
 * Each charge is then counted once: balance − committed ("what is left once the queue is through") never
 * rises above what it was when the batch was added (a charge in neither number), and is that again once the
 * balance is read after the charges (a charge in both would leave it lower). The literal "committed +
 * balance ≤ the starting balance" cannot hold before the first charge; this is the sum that does.
 * MP3s: the sandbox measures them as the engine probes them, so estimates equal charges.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import type { EngineEvent } from '../../../shared/contract/events';
import type { QueueTotals } from '../../../shared/contract/queue';
import { allJobs } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';

const WAIT = { timeout: 30_000, interval: 50 };

let sb: Sandbox;
const home = tempDir('dubdesk-credit-invariant-');
const out = tempDir('dubdesk-credit-invariant-out-');
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 1, balance: 3600 });
});
afterAll(() => sb.stop());

function open(): { host: DubdeskHost; shown: QueueTotals[] } {
  const host = openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
    backoff: { baseMs: 50, capMs: 400 },
  });
  const shown: QueueTotals[] = [];
  host.api.subscribe((e: EngineEvent) => {
    if (e.type === 'totals') shown.push(e.totals);
  });
  return { host, shown };
}

const after = (t: QueueTotals) => (t.balance === null ? null : t.balance - t.creditsCommitted);

/** What a header showed that promised more than there is: each such totals, as balance / committed. */
const promisedMore = (shown: readonly QueueTotals[], left: number) =>
  shown.filter((t) => (after(t) ?? -Infinity) > left).map((t) => `${t.balance} / ${t.creditsCommitted}`);

async function addBatch(host: DubdeskHost, names: string[]): Promise<number> {
  const files = names.map((n, i) => audioMp3(1.5 + i, n));
  const added = await host.api.add({ inputs: files, to: ['es', 'fr'], outDir: out });
  expect(added.added).toHaveLength(files.length * 2);
  return added.credits;
}

describe('committed and balance, each charge counted once', () => {
  it('through a run: never more promised than there is, and exact once the balance is read again', async () => {
    const { host, shown } = open();
    try {
      const cost = await addBatch(host, ['ci-a.mp3', 'ci-b.mp3', 'ci-c.mp3']);
      const start = await host.api.totals();
      expect(start).toMatchObject({ balance: 3600, creditsCommitted: cost });
      const left = 3600 - cost;
      expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      await vi.waitFor(
        () => expect(shown.at(-1)).toMatchObject({ balance: left, creditsCommitted: 0 }),
        WAIT,
      );
      expect(shown.length).toBeGreaterThan(3);
      expect(promisedMore(shown, left)).toEqual([]);
      expect(sb.account.seconds).toBe(left);
    } finally {
      await host.close();
    }
  });

  it('across a restart: what the service charged while nothing ran is not committed again', async () => {
    let { host, shown } = open();
    const balance = sb.account.seconds;
    const cost = await addBatch(host, ['ci-d.mp3', 'ci-e.mp3']);
    const left = balance - cost;
    expect(after(await host.api.totals())).toBe(left);
    // Stopped once the service holds every dub and the queue knows it (a dub the queue has not heard of yet
    // is adopted by the next run, a case of its own): the service goes on making them and charges them all.
    const dubs = sb.state.dubs.size;
    const stop = new AbortController();
    const run = host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 5000, signal: stop.signal });
    await vi.waitFor(async () => {
      expect(sb.state.dubs.size).toBe(dubs + 4);
      expect((await allJobs(host.api)).filter((j) => j.remoteId === null)).toEqual([]);
    }, WAIT);
    stop.abort();
    await run;
    await host.close();
    await vi.waitFor(() => expect(sb.account.seconds).toBe(left), WAIT);

    ({ host, shown } = open());
    try {
      // A face's first look, before any poll: the balance read holds charges the queue has not seen yet.
      await host.api.totals();
      await vi.waitFor(() => expect(shown.at(-1)?.balance).toBe(left), WAIT);
      expect(await host.api.totals()).toMatchObject({ balance: left, creditsCommitted: 0 });
      expect(await host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
      await vi.waitFor(
        () => expect(shown.at(-1)).toMatchObject({ balance: left, creditsCommitted: 0 }),
        WAIT,
      );
      expect(promisedMore(shown, left)).toEqual([]);
      // Nothing counted twice either: once read, the sum is what it was.
      expect(shown.filter((t) => t.balance !== null).map(after)).toContain(left);
    } finally {
      await host.close();
    }
  });
});

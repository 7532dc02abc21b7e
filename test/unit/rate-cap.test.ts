import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_RATE_BYTES, RateCap } from '../../electron/engine/api/rate-cap';
import { mulberry32 } from '../../electron/sandbox/faults';

const MIB = 1024 * 1024;

/** Bytes granted, with the (fake) time each was granted at. */
type Grant = { at: number; bytes: number };

/**
 * `transfers` loops, each asking for chunks of random size (seeded) as fast as the cap lets them, for
 * `seconds` of fake time; with `idle`, each now and then stops for up to 4 s (a file opening, the next
 * job starting), the moments a loose bucket fills up and then bursts. Returns every grant.
 */
async function drive(
  cap: RateCap,
  transfers: number,
  seconds: number,
  seed: number,
  idle = false,
): Promise<Grant[]> {
  const random = mulberry32(seed);
  const grants: Grant[] = [];
  const end = performance.now() + seconds * 1000;
  let running = true;
  const loops = Array.from({ length: transfers }, async () => {
    while (running) {
      const bytes = 1 + Math.floor(random() * 64 * 1024);
      await cap.take(bytes);
      grants.push({ at: performance.now(), bytes });
      if (idle && random() < 0.05) await new Promise((r) => setTimeout(r, random() * 4000));
    }
  });
  while (performance.now() < end) await vi.advanceTimersByTimeAsync(50);
  running = false;
  await vi.advanceTimersByTimeAsync(10_000);
  await Promise.all(loops);
  return grants.filter((g) => g.at <= end);
}

/** The most and the least bytes granted in any `windowMs` stretch between `from` and `to`. */
function windowExtremes(grants: Grant[], windowMs: number, from: number, to: number) {
  let most = 0;
  let least = Infinity;
  for (let start = from; start + windowMs <= to; start += 100) {
    const bytes = grants
      .filter((g) => g.at > start && g.at <= start + windowMs)
      .reduce((n, g) => n + g.bytes, 0);
    most = Math.max(most, bytes);
    least = Math.min(least, bytes);
  }
  return { most, least };
}

describe('RateCap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds three transfers sharing 1 MiB/s within 10% over every 10 s window (seed 36)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cap = new RateCap(MIB);
    const start = performance.now();
    const grants = await drive(cap, 3, 60, 36);
    const { most, least } = windowExtremes(grants, 10_000, start, start + 60_000);
    expect(most).toBeLessThanOrEqual(1.1 * 10 * MIB);
    // The cap is a ceiling, not a brake: the line is kept busy.
    expect(least).toBeGreaterThanOrEqual(0.9 * 10 * MIB);
  });

  it('does not burst past the cap after the transfers stood still (seed 3600)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cap = new RateCap(MIB);
    const start = performance.now();
    const grants = await drive(cap, 2, 120, 3600, true);
    for (const windowMs of [2000, 10_000]) {
      const { most } = windowExtremes(grants, windowMs, start, start + 120_000);
      expect(most).toBeLessThanOrEqual((1.1 * MIB * windowMs) / 1000);
    }
  });

  it('takes a new rate from the next piece on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cap = new RateCap(4 * MIB);
    const first = performance.now();
    const before = await drive(cap, 2, 20, 7);
    cap.set(MIB);
    const second = performance.now();
    const after = await drive(cap, 2, 20, 8);
    expect(windowExtremes(before, 10_000, first, first + 20_000).most).toBeLessThanOrEqual(1.1 * 40 * MIB);
    expect(windowExtremes(after, 10_000, second + 1000, second + 20_000).most).toBeLessThanOrEqual(
      1.1 * 10 * MIB,
    );
  });

  it('lets everything through at once when no cap is set, without a timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const cap = new RateCap(null);
    expect(cap.capped).toBe(false);
    await cap.take(1024 * MIB);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses a cap under the least a transfer can live with, and a rate that is not a number', () => {
    expect(() => new RateCap(MIN_RATE_BYTES - 1)).toThrow(RangeError);
    expect(() => new RateCap(Number.NaN)).toThrow(RangeError);
    expect(() => new RateCap(Infinity)).toThrow(RangeError);
    const cap = new RateCap(MIB);
    cap.set(null);
    expect(cap.capped).toBe(false);
    expect(cap.rate).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../electron/engine/runner/backoff';
import { creditsFor, estimateCredits } from '../../shared/credits';
import { parseAmzDate, presignedExpiry } from '../../shared/presigned';

describe('backoff', () => {
  const policy = { baseMs: 1000, capMs: 30_000 };
  it('doubles per attempt with jitter between half and all of the ceiling, and is capped', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(500);
    expect(backoffDelay(1, policy, () => 1)).toBe(1000);
    expect(backoffDelay(4, policy, () => 1)).toBe(8000);
    expect(backoffDelay(20, policy, () => 1)).toBe(30_000);
    expect(backoffDelay(20, policy, () => 0)).toBe(15_000);
  });
});

describe('credits', () => {
  it('rounds each dub up to whole seconds and doubles studio quality', () => {
    expect(creditsFor(3, false)).toBe(3);
    expect(creditsFor(3.001, false)).toBe(4);
    expect(creditsFor(2.5, true)).toBe(6);
    expect(
      estimateCredits([
        { durationSeconds: 2.5, studio: false },
        { durationSeconds: null, studio: false },
        { durationSeconds: 10, studio: true },
      ]),
    ).toEqual({ credits: 23, unknown: 1 });
  });
});

describe('pre-signed links', () => {
  it('read their own expiry from the query', () => {
    expect(parseAmzDate('20261122T034621Z')).toBe(Date.UTC(2026, 10, 22, 3, 46, 21));
    expect(parseAmzDate('yesterday')).toBeNull();
    expect(
      presignedExpiry('http://h/u?X-Amz-Date=20261122T034621Z&X-Amz-Expires=3600&X-Amz-Signature=ab'),
    ).toBe(Date.UTC(2026, 10, 22, 4, 46, 21));
    expect(presignedExpiry('http://h/u?Expires=1800000000')).toBe(1_800_000_000_000);
    expect(presignedExpiry('http://h/u')).toBeNull();
  });
});

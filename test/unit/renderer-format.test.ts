import { describe, expect, it } from 'vitest';
import { formatCount } from '../../renderer/src/format';

describe('formatCount', () => {
  it('groups thousands exactly as en-US does, without asking ICU for whole numbers', () => {
    for (const n of [
      0,
      7,
      12,
      999,
      1000,
      1234,
      10_002,
      123_456,
      1_234_567,
      -1,
      -1234,
      -999_999,
      2 ** 53 - 1,
      1.5,
    ])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });
});

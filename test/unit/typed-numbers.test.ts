import { describe, expect, it } from 'vitest';
import { typedDecimal, typedWhole } from '../../renderer/src/typed-numbers';

describe('numbers as people type them', () => {
  it('a decimal takes a point or a comma, and nothing else', () => {
    expect(['2.5', '2,5', ' 2,5 ', '0,25', ',5', '5', '5.'].map(typedDecimal)).toEqual([
      2.5, 2.5, 2.5, 0.25, 0.5, 5, 5,
    ]);
    expect(typedDecimal('')).toBe(null);
    for (const bad of ['2,5,1', '2.5.1', 'abc', '-1', '1e3', '5 MiB', '1,000.5'])
      expect(typedDecimal(bad)).toBeNaN();
  });

  it('a whole number takes thousands grouped by a point, comma, space or apostrophe, one kind at a time', () => {
    expect(['5000', '5.000', '5,000', '5 000', "5'000", '1.234.567', '5\u202f000'].map(typedWhole)).toEqual([
      5000, 5000, 5000, 5000, 5000, 1_234_567, 5000,
    ]);
    expect(typedWhole(' ')).toBe(null);
    for (const bad of ['1.5', '1,50', '5.000,000', '5.000 000', '12345.678', '-3', 'x'])
      expect(typedWhole(bad)).toBeNaN();
  });
});

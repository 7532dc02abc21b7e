import { describe, expect, it } from 'vitest';
import {
  nameBytes,
  NAME_MAX_BYTES,
  RESULT_TAIL_BYTES,
  resultStem,
} from '../../electron/engine/outputs/result-stem';

const room = NAME_MAX_BYTES - RESULT_TAIL_BYTES;

describe('resultStem', () => {
  it('keeps a stem that leaves room for the longest result name', () => {
    expect(resultStem('Movie')).toBe('Movie');
    expect(resultStem('x'.repeat(room))).toBe('x'.repeat(room));
  });

  it.each([
    ['ASCII', 'a'.repeat(300)],
    ['2-byte letters', 'é'.repeat(150)],
    ['NFD accents (3 bytes a grapheme)', 'e\u0301'.repeat(100)],
    ['CJK (3 bytes)', '字'.repeat(120)],
    ['family emoji (ZWJ sequences of 18 bytes)', '👨‍👩‍👧'.repeat(20)],
  ])('%s: shortened by bytes to whole graphemes, the same every time', (_what, stem) => {
    const short = resultStem(stem);
    expect(nameBytes(short)).toBeLessThanOrEqual(room);
    expect(short).toBe(resultStem(stem));
    const [kept = '', tag = ''] = short.split('~');
    expect(tag).toMatch(/^[0-9a-f]{8}$/);
    expect(stem.startsWith(kept)).toBe(true);
    // Cut only between graphemes: what is kept is a whole number of the repeated unit.
    const unit =
      [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(stem)][0]?.segment ?? '';
    expect(kept.length % unit.length).toBe(0);
  });

  it('counts a composed name as its decomposed bytes (HFS+ stores NFD): é is 3 bytes there', () => {
    const stem = 'é'.repeat(80); // 160 bytes composed, 240 decomposed
    expect(nameBytes(stem)).toBe(240);
    expect(nameBytes(resultStem(stem))).toBeLessThanOrEqual(room);
  });

  it('two long stems that differ only past the cut stay two', () => {
    const long = 'b'.repeat(260);
    expect(resultStem(`${long}1`)).not.toBe(resultStem(`${long}2`));
  });
});

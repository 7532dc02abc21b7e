import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_TEXT_MAX, cleanServiceText, serviceValueText } from '../../shared/text';

/** Anything a terminal or a bidi-aware renderer would act on. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
const codePoints = (s: string) => [...s].length;

describe('cleanServiceText', () => {
  it.each([
    ['\u001b]0;PWNED\u0007Invalid key', 'Invalid key'],
    ['\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\', 'click'],
    ['\u001b[31mred\u001b[0m text', 'red text'],
    ['\u001b[2J\u001b[HCleared', 'Cleared'],
    ['a\u009b31mb', 'ab'],
    ['a\u009d0;title\u009cb', 'ab'],
    ['\u001bPq#0;2;0;0;0\u001b\\sixel', 'sixel'],
    ['bell\u0007 back\bspace\u0000nul', 'bell backspacenul'],
    ['line one\r\nline two\ttab', 'line one line two tab'],
    ['\u202eevil.exe\u202c.txt', 'evil.exe.txt'],
    ['\u2067isolate\u2069', 'isolate'],
    ['lone \ud800 surrogate', 'lone \ufffd surrogate'],
    ['emoji 🎬 stays', 'emoji 🎬 stays'],
    ['   spaced    out   ', 'spaced out'],
    ['\u001b', ''],
    ['\u001b]0;never terminated', ''],
  ])('%j -> %j', (input, expected) => {
    expect(cleanServiceText(input)).toBe(expected);
  });

  it('caps the length, with an ellipsis, without splitting a character', () => {
    expect(cleanServiceText('x'.repeat(10_000))).toBe(`${'x'.repeat(SERVICE_TEXT_MAX - 1)}…`);
    expect(cleanServiceText('🎬'.repeat(20), 5)).toBe('🎬🎬🎬🎬…');
    expect(cleanServiceText('exactly', 7)).toBe('exactly');
    // Every space JavaScript trims counts as a space (a property-test seed found the no-break space).
    expect(cleanServiceText('\u00a0', 1)).toBe('');
    expect(cleanServiceText('\u3000a\u00a0\u2003b\ufeff', 10)).toBe('a b');
  });

  it('never lets anything unsafe through, and never exceeds the cap', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.integer({ min: 1, max: 500 }),
        (s, max) => {
          const out = cleanServiceText(s, max);
          expect(out).not.toMatch(UNSAFE);
          expect(codePoints(out)).toBeLessThanOrEqual(max);
          expect(out).toBe(out.trim());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is idempotent and keeps plain printable text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const once = cleanServiceText(s, 1000);
        expect(cleanServiceText(once, 1000)).toBe(once);
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[!-~]( ?[!-~]){0,60}$/), (s) => {
        expect(cleanServiceText(s)).toBe(s);
      }),
    );
  });

  it('is linear: megabytes of escapes are read quickly, and only as far as needed', () => {
    const evil = '\u001b['.repeat(500_000) + '\u001b]'.repeat(500_000);
    expect(cleanServiceText(evil)).toBe('');
    expect(cleanServiceText(`ok${'a'.repeat(5_000_000)}`, 3)).toBe('ok…');
  });
});

describe('serviceValueText', () => {
  it('renders strings, objects and arrays on one clean line', () => {
    expect(serviceValueText('Voice \u001b[5mcloning\u001b[0m failed')).toBe('Voice cloning failed');
    expect(serviceValueText({ code: 'E42', detail: 'bad\nthing' })).toBe('{code: E42, detail: bad thing}');
    expect(serviceValueText([1, true, null])).toBe('[1, true, ]');
    expect(serviceValueText(null)).toBe('');
  });

  it('never throws on a deep or huge value', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(serviceValueText(deep)).toBe('{a: {a: {a: {…}}}}');
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v'.repeat(50)]));
    expect(codePoints(serviceValueText(wide))).toBeLessThanOrEqual(SERVICE_TEXT_MAX);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(serviceValueText(v)).not.toMatch(UNSAFE);
      }),
    );
  });
});

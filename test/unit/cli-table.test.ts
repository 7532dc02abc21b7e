import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { table } from '../../electron/cli/format';

const rows = [
  ['ID', 'SOURCE', 'LANG', 'NOTE'],
  ['1', '日本語のインタビュー.mp4', 'es', ''],
  [
    '2',
    'a-very-long-file-name-from-an-export-folder-take-12.mp4',
    'fr',
    'waiting for the network; retrying in 30 s',
  ],
];

describe('CLI tables', () => {
  it('align by terminal cells: a CJK name shifts no column', () => {
    const lines = table(rows, Number.POSITIVE_INFINITY).split('\n');
    const langAt = lines.map((l) => stringWidth(l.slice(0, l.search(/ (es|fr|LANG)\b/) + 1)));
    expect(new Set(langAt).size).toBe(1);
    expect(lines[2]).toContain(rows[2]?.[1]);
  });

  it('fit a narrow terminal: names cut in the middle, notes at the end, nothing wider than the window', () => {
    const lines = table(rows, 60).split('\n');
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(60);
    expect(lines[2]).toMatch(/a-very.*….*\.mp4/);
    expect(lines[2]).toMatch(/waiting.*…$/);
  });
});

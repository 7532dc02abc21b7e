import stringWidth from 'string-width';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { table } from '../../electron/cli/format';
import { printJobs } from '../../electron/cli/status-view';
import type { JobView } from '../../shared/contract/jobs';
import { jobView } from '../helpers/job-view';
import { loadTextWidth } from '../../electron/cli/text-width';

// The CLI loads its text layout before a command's action runs; here, before the tests.
beforeAll(loadTextWidth);

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

describe('status in a narrow terminal', () => {
  const printed = (jobs: JobView[], width: number) => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      printJobs(jobs, false, width);
    } finally {
      spy.mockRestore();
    }
    return out.join('').trimEnd().split('\n');
  };

  it('gives each job a block no wider than the window: CJK, emoji, an escape sequence, a long error', () => {
    const longError = `could not write /home/someone/Videos/${'very-deep-folder/'.repeat(12)}out.es.mp4: disk full`;
    const lines = printed(
      [
        jobView('日本語のインタビュー、第二部、完全版.mp4', { id: 12, state: 'processing', progress: 41.6 }),
        jobView('family 👩‍👩‍👧 trip \u001b[31mred\u001b[0m take 2.mp4', {
          id: 13,
          state: 'failed',
          error: { code: 'disk', message: longError },
        }),
      ],
      40,
    );
    for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(40);
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines[0]).toMatch(/^#12 .*完全版\.mp4 → es$/);
    expect(lines[1]).toBe('   processing 42% · v2');
    const failed = lines.slice(lines.findIndex((l) => l.startsWith('#13 ')));
    expect(failed[0]).toMatch(/take 2\.mp4 → es$/);
    // The error, wrapped over at most four lines, the cut marked.
    expect(failed.slice(2)).toHaveLength(4);
    expect(failed[2]).toMatch(/^ {3}could not write/);
    expect(failed[5]).toMatch(/…$/);
  });

  it('keeps the table where there is room for its notes', () => {
    const lines = printed([jobView('a.mp4', { id: 1 })], 100);
    expect(lines[0]).toMatch(/^ID\s+SOURCE\s+LANG\s+API\s+STATE\s+PROGRESS\s+NOTE$/);
  });
});

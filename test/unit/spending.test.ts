import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chargedSince,
  groupSpending,
  overBudget,
  sinceTime,
  spentInMonthOf,
  totalCredits,
  type SpendRow,
} from '../../shared/contract/spending';
import { SPEND_COLUMNS, spendLinesCsv, spendRowsCsv } from '../../shared/spending-csv';

const row = (jobId: number, chargedAt: string, over: Partial<SpendRow> = {}): SpendRow => ({
  jobId,
  chargedAt,
  source: `/videos/clip ${jobId}.mp4`,
  sourceName: `clip ${jobId}.mp4`,
  folder: '/videos',
  language: 'es',
  studio: false,
  credits: 10,
  estimatedCredits: 9,
  batch: 1,
  ...over,
});

describe('spending, from the charges the service reported', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  // 2026-12-01T05:00Z is still 30 November in Los Angeles: days and months are the user's, not UTC's.
  const rows = [
    row(1, '2026-11-30T18:00:00.000Z', { credits: 30 }),
    row(2, '2026-12-01T05:00:00.000Z', { language: 'fr', credits: 12, batch: 2 }),
    row(3, '2026-12-01T09:00:00.000Z', { language: 'fr', credits: 40, batch: 2, folder: '/watched/in' }),
    row(4, '2026-10-02T12:00:00.000Z', { credits: 7, batch: null }),
  ];

  it('groups by local day and month, oldest first', () => {
    expect(groupSpending(rows, 'day')).toEqual([
      { key: '2026-10-02', jobs: 1, credits: 7 },
      { key: '2026-11-30', jobs: 2, credits: 42 },
      { key: '2026-12-01', jobs: 1, credits: 40 },
    ]);
    expect(groupSpending(rows, 'month').map((l) => [l.key, l.credits])).toEqual([
      ['2026-10', 7],
      ['2026-11', 42],
      ['2026-12', 40],
    ]);
  });

  it('groups by batch, folder and language, and every grouping adds up to the same total', () => {
    expect(groupSpending(rows, 'batch').map((l) => l.key)).toEqual(['earlier', '#1', '#2']);
    expect(groupSpending(rows, 'language')).toEqual([
      { key: 'fr', jobs: 2, credits: 52 },
      { key: 'es', jobs: 2, credits: 37 },
    ]);
    expect(groupSpending(rows, 'folder')[0]).toEqual({ key: '/videos', jobs: 3, credits: 49 });
    for (const by of ['day', 'month', 'batch', 'folder', 'language'] as const)
      expect(totalCredits(groupSpending(rows, by))).toBe(totalCredits(rows));
  });

  it('reads --since as a local day or an ISO time, and refuses what is not a date', () => {
    expect(chargedSince(rows, '2026-12-01').map((r) => r.jobId)).toEqual([3]);
    expect(chargedSince(rows, '2026-11-30T00:00:00Z').map((r) => r.jobId)).toEqual([1, 2, 3]);
    expect(Number.isNaN(sinceTime('2026-02-30'))).toBe(true);
    expect(Number.isNaN(sinceTime('last week'))).toBe(true);
  });

  it('writes CSV with a header and one line per job that a spreadsheet reads back whole', () => {
    const odd = [
      row(5, '2026-11-02T10:00:00.000Z', { source: '=HYPERLINK("http://x")', credits: 3 }),
      row(6, '2026-11-02T10:00:00.000Z', { source: '/v/a, "b"\nc Ñandú.mp4', credits: 4, studio: true }),
      ...rows,
    ];
    const text = spendRowsCsv(odd);
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0] ?? {})).toEqual([...SPEND_COLUMNS]);
    expect(records).toHaveLength(odd.length);
    expect(records.reduce((n, r) => n + Number(r.credits), 0)).toBe(totalCredits(odd));
    // A name a spreadsheet would run is kept as text, not a formula.
    expect(records[0]?.file).toBe(`'=HYPERLINK("http://x")`);
    expect(records[1]?.file).toBe('/v/a, "b"\nc Ñandú.mp4');
    expect(records[0]?.date).toBe('2026-11-02 02:00');
  });

  it('writes grouped CSV with the grouping as its first column', () => {
    const records = parse(spendLinesCsv(groupSpending(rows, 'language'), 'language'), { columns: true });
    expect(records).toEqual([
      { language: 'fr', jobs: '2', credits: '52' },
      { language: 'es', jobs: '2', credits: '37' },
    ]);
  });

  it('counts this month and what the queue will still charge against the budget', () => {
    const now = new Date('2026-12-01T10:00:00.000Z'); // 1 December in Los Angeles
    expect(spentInMonthOf(rows, now)).toBe(40);
    const budget = { credits: 100, spentThisMonth: 40, committed: 30 };
    expect(overBudget(budget, 30)).toEqual({ over: false, left: 30 });
    expect(overBudget(budget, 31)).toEqual({ over: true, left: 30 });
    expect(overBudget(null, 1e9)).toEqual({ over: false, left: null });
  });
});

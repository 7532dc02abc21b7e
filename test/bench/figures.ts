import { writeFileSync } from 'node:fs';

/** One row of the table, as written to `bench-results.json`. */
export interface Figure {
  name: string;
  /** Null when it could not be measured here (the line says why in `reference`). */
  measured: number | null;
  unit: string;
  target: string;
  /** What it is compared with, measured in the same run (or the target, for absolute figures). */
  reference: string;
  /** measured / reference; null when there is nothing to divide by. */
  ratio: number | null;
  pass: boolean | null;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

/** Runs `a` and `b` in turns (a, b, a, b…), `n` times each: both see the same machine, load and caches. */
export async function alternate<A, B>(
  n: number,
  a: (i: number) => Promise<A>,
  b: (i: number) => Promise<B>,
): Promise<{ a: A[]; b: B[] }> {
  const out = { a: [] as A[], b: [] as B[] };
  for (let i = 0; i < n; i++) {
    out.a.push(await a(i));
    out.b.push(await b(i));
  }
  return out;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A ratio to two decimals, or to its first significant ones when smaller than that. */
export const ratioOf = (a: number, b: number): number => {
  const r = a / b;
  return r !== 0 && Math.abs(r) < 0.01 ? Number(r.toPrecision(2)) : round(r);
};

const text = (v: number | boolean | null | string) =>
  v === null ? '—' : typeof v === 'boolean' ? (v ? 'yes' : 'NO') : String(v);

export function printTable(figures: readonly Figure[]): string {
  const head = ['figure', 'measured', 'unit', 'target', 'reference', 'ratio', 'pass'];
  const rows = figures.map((f) => [
    f.name,
    text(f.measured),
    f.unit,
    f.target,
    f.reference,
    text(f.ratio),
    f.pass === null ? 'not measured' : text(f.pass),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => (c === 1 || c === 5 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function writeResults(path: string, figures: readonly Figure[]): void {
  writeFileSync(path, `${JSON.stringify({ figures }, null, 2)}\n`);
}

/**
 * Prints how long each part of a section took (`bench: wire: clips made in 4 s`), so the setup is seen apart
 * from what is measured. Each call times the part since the previous call (or since the clock started).
 */
export function partClock(section: string): (part: string) => void {
  let t = performance.now();
  return (part) => {
    process.stderr.write(`bench: ${section}: ${part} in ${round((performance.now() - t) / 1000, 1)} s\n`);
    t = performance.now();
  };
}

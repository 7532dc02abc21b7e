import { cliTruncate, stringWidth } from './text-width';
import type { JobView } from '../../shared/contract/jobs';
import { cleanServiceText } from '../../shared/text';

export { formatBytes, formatSpeed } from '../../shared/format';

/**
 * A number of credits as every line of the CLI writes it: grouped in thousands ("1,200"), as its other
 * counts are (`plural`); JSON and CSV keep plain numbers.
 */
export const creditCount = (n: number): string => n.toLocaleString('en-US');

/** Anything that came from a file name, a path or the service, safe for a terminal (no escape sequences). */
export function printable(s: string): string {
  return cleanServiceText(s, Number.POSITIVE_INFINITY);
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(r).padStart(2, '0')}s` : `${r}s`;
}

export function describeJob(j: JobView): string {
  return printable(`#${j.id} ${j.sourceName} → ${j.destLang}`);
}

/**
 * JSON leaves DEL, C1 controls, line separators and bidi controls as they are; escaped, the text a script
 * reads back is the same, and a terminal showing it is safe.
 */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printJson(value: unknown): void {
  const text = JSON.stringify(value, null, 2).replace(
    UNSAFE_IN_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  process.stdout.write(`${text}\n`);
}

/** A plain, aligned table for terminals and logs. */
/** Columns a cell may be narrowed to before the table gives up fitting (it then wraps, but stays true). */
const MIN_COLUMN = 6;

/**
 * Rows as aligned columns, measured in terminal cells (a CJK character or an emoji takes two). On a
 * terminal narrower than the table, the widest columns give way first: names cut in their middle (start
 * and extension stay), the last column (notes) at its end. Pipes and files get every cell whole.
 */
export function table(
  rows: string[][],
  width = process.stdout.isTTY ? (process.stdout.columns ?? 80) - 1 : Number.POSITIVE_INFINITY,
  /** A column's own way to cut a cell to `w` columns (the names, cut where they differ); else the default. */
  cutCell?: (cell: string, w: number, column: number) => string | null,
): string {
  const count = rows[0]?.length ?? 0;
  const widths = Array.from({ length: count }, (_, c) =>
    Math.max(...rows.map((r) => stringWidth(r[c] ?? ''))),
  );
  const gaps = 2 * Math.max(0, count - 1);
  for (let total = widths.reduce((a, b) => a + b, gaps); total > width; total--) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= MIN_COLUMN) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const fit = (cell: string, c: number) => {
    const w = widths[c] ?? 0;
    const cut =
      stringWidth(cell) > w
        ? (cutCell?.(cell, w, c) ?? cliTruncate(cell, w, { position: c === count - 1 ? 'end' : 'middle' }))
        : cell;
    return c === count - 1 ? cut : cut + ' '.repeat(Math.max(0, w - stringWidth(cut)));
  };
  return rows.map((r) => r.map(fit).join('  ').trimEnd()).join('\n');
}

export /** `#3 #4 #9`, or `#1–#15` for a run of numbers. */
function jobRange(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first !== undefined && last !== undefined && last - first === sorted.length - 1 && sorted.length > 2)
    return `#${first}–#${last}`;
  return `${sorted
    .slice(0, 8)
    .map((id) => `#${id}`)
    .join(' ')}${sorted.length > 8 ? ' …' : ''}`;
}

/** One argument for a POSIX shell (and PowerShell): single-quoted, a quote inside closed and reopened. */
export const shellArg = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

import type { IncomingHttpHeaders } from 'node:http';
import { contentLength } from './transport';

export interface ContentRange {
  start: number;
  end: number;
  /** Null for `*` (the server does not say). */
  total: number | null;
}

const DIGITS = '(\\d{1,16})';
const RANGE = new RegExp(`^\\s*bytes ${DIGITS}-${DIGITS}/(?:${DIGITS}|\\*)\\s*$`, 'i');
const UNSATISFIED = new RegExp(`^\\s*bytes \\*/${DIGITS}\\s*$`, 'i');

const safe = (s: string | undefined) =>
  s === undefined ? null : Number.isSafeInteger(Number(s)) ? Number(s) : NaN;

/** `bytes 100-199/1000` (or `/*`), checked for sense; null when absent or malformed. */
export function parseContentRange(value: string | undefined): ContentRange | null {
  const m = value === undefined ? null : value.match(RANGE);
  if (!m) return null;
  const start = safe(m[1]) ?? NaN;
  const end = safe(m[2]) ?? NaN;
  const total = safe(m[3]);
  if (Number.isNaN(start) || Number.isNaN(end) || Number.isNaN(total ?? 0)) return null;
  if (end < start || (total !== null && end >= total)) return null;
  return { start, end, total };
}

/** The length a 416 reports (`bytes *\/1000`); null when absent or malformed. */
export function unsatisfiedLength(value: string | undefined): number | null {
  const m = value === undefined ? null : value.match(UNSATISFIED);
  const n = m ? safe(m[1]) : null;
  return n === null || Number.isNaN(n) ? null : n;
}

/** What to do with a download's answer, given `have` bytes already in the part file. */
export type DownloadPlan =
  /** Write the body: appended after `have`, or from the start; `expected` is the whole file's length. */
  | { action: 'write'; append: boolean; expected: number | null }
  /** The part file already is the whole file. */
  | { action: 'complete' }
  /** The answer does not fit what the part file holds: start over from nothing. */
  | { action: 'restart'; why: string }
  /** Not a download answer at all: an error status to report. */
  | { action: 'error' };

/**
 * The rules for an answer to `GET` (with `Range: bytes=<have>-` when `have` > 0). Pure, so every header a
 * storage server may send can be tried against it.
 */
export function planDownload(status: number, have: number, headers: IncomingHttpHeaders): DownloadPlan {
  const length = contentLength(headers['content-length']);
  if (status === 200) return { action: 'write', append: false, expected: length };
  if (status === 206) {
    const range = parseContentRange(headers['content-range']);
    if (!range) return { action: 'restart', why: 'a partial answer without a valid Content-Range' };
    if (range.start !== have)
      return { action: 'restart', why: `a partial answer from byte ${range.start}, not ${have}` };
    if (length !== null && length !== range.end - range.start + 1)
      return { action: 'restart', why: 'a partial answer whose length does not match its range' };
    return { action: 'write', append: true, expected: range.total ?? range.end + 1 };
  }
  if (status === 416) {
    const total = unsatisfiedLength(headers['content-range']);
    if (have > 0 && total === have) return { action: 'complete' };
    return { action: 'restart', why: 'the partial download no longer matches the file' };
  }
  return { action: 'error' };
}

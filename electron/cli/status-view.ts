import { cliTruncate, wrapAnsi } from './text-width';
import { jobFiles, type JobView } from '../../shared/contract/jobs';
import type { QueueTotals } from '../../shared/contract/queue';
import { thenSay } from '../../shared/format';
import { distinctStart, fitLine, shortened, type Distinct } from './fit';
import { creditCount, formatDuration, printable, table } from './format';

/** Below this many columns the table's notes would shrink to stubs: each job gets a few lines of its own. */
const NARROW = 72;
/** Lines of a note at most in the narrow layout (an error with a long path); the rest is cut, marked. */
const NOTE_LINES = 4;
const INDENT = '   ';

/** How wide stdout is: a terminal's width (its last column left free), or no limit for a pipe or a file. */
export const outputWidth = (): number =>
  process.stdout.isTTY ? (process.stdout.columns ?? 80) - 1 : Number.POSITIVE_INFINITY;

/** Fewest columns an indented line keeps for its words, however deep its indent. */
const MIN_WORDS_WIDTH = 16;

/**
 * Each line wrapped to `width`; an indented one wraps under its own indent, so what hangs from a line stays so.
 * `hard`: a word longer than the width is broken too (else it is left whole, for the terminal to wrap).
 */
export function wrapIndented(text: string, width: number, hard = true): string {
  return text
    .split('\n')
    .map((line) => {
      const indent = /^ */.exec(line)?.[0] ?? '';
      if (!indent) return wrapAnsi(line, width, { hard });
      const room = Math.max(MIN_WORDS_WIDTH, width - indent.length);
      return wrapAnsi(line.slice(indent.length), room, { hard })
        .split('\n')
        .map((part) => `${indent}${part}`)
        .join('\n');
    })
    .join('\n');
}

/** Prose for stdout: words wrapped to a terminal's width (a long path broken where it must be). */
export function say(text: string, width = outputWidth()): void {
  const gap = /^\n*/.exec(text)?.[0] ?? '';
  const body = text.slice(gap.length);
  process.stdout.write(`${gap}${Number.isFinite(width) ? wrapIndented(body, width) : body}\n`);
}

/** Why a job is where it is, in words: its error, what it waits for, or where its results went. */
export function noteOf(j: JobView, now: number, verbose: boolean): string {
  let note =
    j.error?.message ??
    j.waiting?.message ??
    (j.state === 'completed'
      ? `${j.copiedFrom ? `copied from ${j.copiedFrom}, no charge: ` : ''}${jobFiles(j.outputs)
          .map((o) => o.path)
          .join(', ')}`
      : '');
  if (j.waiting?.retryAt)
    note += `, retrying in ${formatDuration(Math.max(0, (Date.parse(j.waiting.retryAt) - now) / 1000))}`;
  if (verbose && j.error?.remedy) note = thenSay(note, j.error.remedy);
  return printable(note);
}

/**
 * A job's state as the table says it: a finished dub whose QC failed or is worth a look says so beside
 * "completed", so a list scanned for what is not done does not pass over it (`dubdesk qc ID` says why).
 */
export function stateCell(j: JobView): string {
  if (j.state !== 'completed' || !j.qc || j.qc.verdict === 'pass') return j.state;
  return `completed, ${j.qc.verdict === 'fail' ? 'QC failed' : 'QC: worth a look'}`;
}

/** One job in a narrow terminal: `#ID name → lang`, then its state, then its note, each within `width`. */
function jobBlock(j: JobView, note: string, width: number, distinct: Distinct): string[] {
  const lines = [fitLine(`#${j.id} `, printable(j.sourceName), ` → ${j.destLang}`, width, distinct)];
  lines.push(cliTruncate(`${INDENT}${stateCell(j)} ${Math.round(j.progress)}% · ${j.api}`, width));
  if (note) {
    const wrapped = wrapAnsi(note, Math.max(1, width - INDENT.length), { hard: true }).split('\n');
    const shown = wrapped.slice(0, NOTE_LINES);
    if (wrapped.length > NOTE_LINES)
      shown[NOTE_LINES - 1] = cliTruncate(`${shown[NOTE_LINES - 1] ?? ''} …`, width - INDENT.length);
    lines.push(...shown.map((l) => `${INDENT}${l}`));
  }
  return lines;
}

/**
 * The jobs as a table (ID, source, language, API, state, progress, note), or, in a terminal too narrow
 * for its notes to say anything, a short block per job: nothing wider than the window, nothing the
 * terminal has to wrap, each name keeping its end (where `take 2` and the extension are).
 */
export function printJobs(jobs: readonly JobView[], verbose: boolean, width = outputWidth()): void {
  const now = Date.now();
  // A name cut to fit keeps where it differs from the others listed (names alike but for a part number).
  const names = new Set(jobs.map((j) => printable(j.sourceName)));
  const distinctOf = (name: string) => distinctStart(name, names);
  if (width < NARROW) {
    const blocks = jobs.map((j) =>
      jobBlock(j, noteOf(j, now, verbose), width, distinctOf(printable(j.sourceName))).join('\n'),
    );
    process.stdout.write(`${blocks.join('\n')}\n`);
    return;
  }
  const rows = [['ID', 'SOURCE', 'LANG', 'API', 'STATE', 'PROGRESS', 'NOTE']];
  for (const j of jobs)
    rows.push([
      String(j.id),
      printable(j.sourceName),
      j.destLang,
      j.api,
      stateCell(j),
      `${Math.round(j.progress)}%`,
      noteOf(j, now, verbose),
    ]);
  const cutName = (cell: string, w: number, column: number) =>
    column === 1 ? shortened(cell, w, distinctOf(cell)) : null;
  process.stdout.write(`${table(rows, width, cutName)}\n`);
}

/** The service's balance and, beside it, what the queue will still spend: never one taken from the other. */
export function printCredits(t: QueueTotals): void {
  const balance = t.balance === null ? 'unknown (the service did not answer)' : creditCount(t.balance);
  const short = t.creditsShort ? `; short by ${creditCount(t.creditsShort)}` : '';
  say(
    `\nCredits: balance ${balance}, ${creditCount(t.creditsCommitted)} committed to jobs not yet charged${short}.`,
  );
}

/** The service has no pause: what a pause cannot stop, said wherever a pause is. */
export const STARTED_DUBS_GO_ON =
  'Dubs already started keep being processed and charged by the service: a run follows them and records their charge; their downloads wait for resume.';

/** The queue's own state, whatever the filter listed: paused, why, and what goes on. */
export function printPaused(t: QueueTotals): void {
  if (!t.paused) return;
  const why: Record<NonNullable<QueueTotals['paused']>['reason'], string> = {
    user: `The queue is paused (by \`dubdesk pause\` or the app); \`dubdesk resume\` goes on. ${STARTED_DUBS_GO_ON}`,
    credits: `The queue is paused: out of credits (${printable(t.paused.message)}). Add credits; the next \`dubdesk run\` checks the balance again.`,
    auth: `The queue is paused: ${printable(t.paused.message)}. Check the key (\`dubdesk login\`, or DUBDESK_API_KEY); the next \`dubdesk run\` tries again.`,
  };
  say(`\n${why[t.paused.reason]}`);
}

/** A disk that is full, under the data folder or under a package's folder: what to free where. */
export function printFullDisks(t: QueueTotals): void {
  if (t.storageFull)
    say(`\n${printable(t.storageFull)}: the queue waits for space and goes on by itself once there is room.`);
  if (t.packageDiskFull)
    say(
      `\nA package waits: ${printable(t.packageDiskFull)}; it is made by itself once there is room (no charge).`,
    );
}

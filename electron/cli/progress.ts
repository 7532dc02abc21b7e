import { basename, extname } from 'node:path';
import { cliTruncate } from './text-width';
import { createLogUpdate } from 'log-update';
import type { EngineEvent } from '../../shared/contract/events';
import { isTerminal, jobFiles, type JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { QueueTotals } from '../../shared/contract/queue';
import { stateWords as phaseWords } from '../../shared/state-words';
import { distinctStart, fitLine, fits, type Distinct } from './fit';
import { describeJob, formatDuration, formatSpeed, printable } from './format';

export type { QueueHeld };
/** `notices`: only what holds the work up (a full disk), no job lines: a command whose work is not a dub's. */
export type ProgressMode = 'tty' | 'plain' | 'silent' | 'notices';

/** Live lines on a terminal that can redraw; one line per change elsewhere (pipes, logs, TERM=dumb). */
export function progressMode(json: boolean | undefined): ProgressMode {
  if (json) return 'silent';
  return process.stderr.isTTY && process.env.TERM !== 'dumb' ? 'tty' : 'plain';
}

function waitingText(j: JobView, now: number): string | null {
  if (!j.waiting) return null;
  const at = j.waiting.retryAt ? Math.max(0, Math.round((Date.parse(j.waiting.retryAt) - now) / 1000)) : null;
  const when = at !== null && at > 0 ? `, retrying in ${formatDuration(at)}` : '';
  const attempt = j.waiting.attempt > 1 ? ` (attempt ${j.waiting.attempt})` : '';
  return printable(`${j.waiting.message}${when}${attempt}`);
}

/** Why nothing new starts, in a job's line; null while the queue goes on. */
type QueueReason = NonNullable<QueueTotals['paused']>['reason'];
type QueueHeld = QueueReason | null;
const HELD: Record<QueueReason, string> = {
  user: 'the queue is paused',
  credits: 'out of credits, the queue is paused',
  auth: 'the key was rejected, the queue is paused',
};

/**
 * A job's state in words, with the queue's pause: what waits says it is paused, what the service is making
 * says the service goes on (it has no pause, and charges when it completes).
 */
function stateWords(j: JobView, held: QueueHeld): string {
  if (!held) return phaseWords(j.state);
  if (j.state === 'queued') return `${phaseWords('paused')} (${HELD[held]})`;
  if (j.state === 'submitted' || j.state === 'processing')
    return `${phaseWords(j.state)} (${HELD[held]}; the service goes on)`;
  return phaseWords(j.state);
}

/**
 * Finished, with its files as they stay: a completed dub whose QC and SubRip file are still being made
 * here is not (its WebVTT may go, its SubRip come), and its finished line waits for them.
 */
const settled = (j: JobView) => isTerminal(j.state) && !j.delivering;

const checkingWords = (j: JobView) =>
  j.state === 'completed' && j.delivering ? 'downloaded; checking it here (QC)' : null;

function detail(j: JobView, now: number, held: QueueHeld): string {
  const checking = checkingWords(j);
  if (checking) return checking;
  const waiting = waitingText(j, now);
  if (waiting) return waiting;
  const parts: string[] = [stateWords(j, held)];
  if (j.bytesPerSecond) parts.push(formatSpeed(j.bytesPerSecond));
  if (j.etaSeconds !== null) parts.push(`${formatDuration(j.etaSeconds)} left`);
  return parts.join(' · ');
}

/** What became of a finished job, in full (logs and pipes keep every word). */
export function finishedLine(j: JobView): string {
  return `${MARK[j.state] ?? '–'} ${describeJob(j)}: ${outcome(j, (p) => p)}`;
}

const MARK: Partial<Record<JobView['state'], string>> = { completed: '✓', failed: '✗' };

/** A copy's results were linked from a dub already made: said as `status` says it. */
const copiedWords = (j: JobView): string =>
  j.copiedFrom ? `copied from ${printable(basename(j.copiedFrom))}, no charge: ` : '';

function outcome(j: JobView, path: (p: string) => string): string {
  if (j.state === 'completed')
    return `${copiedWords(j)}${jobFiles(j.outputs)
      .map((o) => printable(path(o.path)))
      .join(', ')}`;
  if (j.state === 'failed') return printable(j.error?.message ?? 'failed');
  return 'canceled';
}

/**
 * A name as a terminal line shows it. Zero-width joiners go: terminals disagree on whether 👩‍👩‍👧 is one
 * glyph or three, and counted as one where it shows as three, the line would wrap.
 */
const shownName = (j: JobView) => printable(j.sourceName).replaceAll('\u200d', '');

/**
 * A finished job on one terminal line: the files by name (their folder is the one asked for). Where they do
 * not fit beside the source's name, which the user knows the job by, they are counted instead, by kind.
 */
export function finishedFitted(j: JobView, width: number, distinct?: Distinct): string {
  const head = `${MARK[j.state] ?? '–'} #${j.id} `;
  const tail = ` → ${j.destLang}: ${outcome(j, (p) => basename(p))}`;
  if (j.state !== 'completed' || fits(`${head}${shownName(j)}${tail}`, width))
    return fitLine(head, shownName(j), tail, width, distinct);
  const each = jobFiles(j.outputs);
  const kinds = each.map((o) => extname(o.path).slice(1) || o.type);
  const files = each.length === 1 ? '1 file' : `${each.length} files`;
  return fitLine(
    head,
    shownName(j),
    ` → ${j.destLang}: ${copiedWords(j)}${files} (${kinds.join(', ')})`,
    width,
    distinct,
  );
}

function liveLine(j: JobView, now: number, width: number, held: QueueHeld, distinct?: Distinct): string {
  const head = `  ${String(Math.round(j.progress)).padStart(3)}% #${j.id} `;
  return fitLine(head, shownName(j), ` → ${j.destLang} · ${detail(j, now, held)}`, width, distinct);
}

/** Said once when the queue's pause begins or ends (a run goes on following what the service is making). */
function heldLine(held: QueueHeld): string {
  return held
    ? `  ${HELD[held]}: nothing new starts; dubs already started are followed until the service ends them`
    : '  the queue goes on';
}

/** Working first (moving bytes, then at the service), then waiting, then queued. */
const ORDER: Record<JobView['state'], number> = {
  uploading: 0,
  downloading: 0,
  processing: 1,
  submitted: 2,
  paused: 4,
  queued: 3,
  completed: 9,
  failed: 9,
  canceled: 9,
};

export interface Progress {
  /** A message of the command's own (Ctrl+C's), shown above the live region rather than over it. */
  say(line: string): void;
  /** Stops following; `last`, the jobs as the run left them, is shown first (what no event told yet). */
  stop(last?: readonly JobView[]): void;
  /** A job as it is now, learnt other than by an event (what `status --watch` shows first). */
  update(job: JobView): void;
}

const plainSay = (line: string) => process.stderr.write(`${line}\n`);

/** A line when a field of the totals that says a disk is full changes; null otherwise. */
function fullDiskNotice(
  field: 'storageFull' | 'packageDiskFull',
  full: (said: string) => string,
  room: string,
): (e: EngineEvent) => string | null {
  let said: string | null = null;
  return (e) => {
    if (e.type !== 'totals' || (e.totals[field] ?? null) === said) return null;
    said = e.totals[field] ?? null;
    return said ? full(printable(said)) : room;
  };
}

/** Lines when the data folder's disk, or a package's, filled up or has room again; null otherwise. */
function storageNotices(): (e: EngineEvent) => string | null {
  const notices = [
    fullDiskNotice(
      'storageFull',
      (said) => `dubdesk: ${said}; waiting for space (nothing is lost, the queue goes on once there is room)`,
      'dubdesk: there is room again; the queue goes on',
    ),
    fullDiskNotice(
      'packageDiskFull',
      (said) => `dubdesk: a package waits: ${said}; it is made by itself once there is room (no charge)`,
      'dubdesk: the package has room; making it',
    ),
  ];
  return (e) =>
    notices
      .map((n) => n(e))
      .filter((line) => line !== null)
      .join('\n') || null;
}

/**
 * Calls `apply` with every job `fetch` returns, after each `jobs-changed` event (the engine's word for "many
 * jobs changed at once: fetch what you show again"). One fetch at a time; events meanwhile ask for one more.
 */
function refetchOnListChange(
  fetch: () => Promise<readonly JobView[]>,
  apply: (job: JobView) => void,
): { heard: (e: EngineEvent) => void; stop: () => void } {
  let running = false;
  let again = false;
  let stopped = false;
  const refetch = async (): Promise<void> => {
    running = true;
    do {
      again = false;
      const jobs = await fetch().catch(() => [] as readonly JobView[]);
      if (!stopped) for (const j of jobs) apply(j);
    } while (again && !stopped);
    running = false;
  };
  const heard = (e: EngineEvent) => {
    if (e.type !== 'jobs-changed' || stopped) return;
    if (running) again = true;
    else void refetch();
  };
  return { heard, stop: () => void (stopped = true) };
}

/**
 * Follows the engine's events for the jobs in scope. On a terminal: a bounded live region (the busiest jobs
 * and a totals line, never more lines than fit, each cut to the width so nothing wraps) with finished jobs
 * scrolling above it. Elsewhere: one line per change of state.
 */
export function followProgress(
  api: DubdeskApi,
  mode: ProgressMode,
  initial: readonly JobView[],
  inScope: (id: number) => boolean,
  /** The queue's pause when the run began (the totals' events tell its changes). */
  initialHeld: QueueHeld = null,
  /** The jobs in scope as they are now: read again when the engine says many changed at once. */
  refetch: () => Promise<readonly JobView[]> = async () => [],
  /** Where the lines go: standard error for a run, standard output for `status --watch`. */
  out: NodeJS.WriteStream = process.stderr,
): Progress {
  if (mode === 'silent') return { say: plainSay, stop: () => {}, update: () => {} };
  const storage = storageNotices();
  if (mode === 'notices') {
    const unsubscribe = api.subscribe((e: EngineEvent) => {
      const full = storage(e);
      if (full) out.write(`${full}\n`);
    });
    return { say: (line) => out.write(`${line}\n`), stop: () => unsubscribe(), update: () => {} };
  }
  const jobs = new Map(initial.map((j) => [j.id, j]));
  const reported = new Set(initial.filter(settled).map((j) => j.id));
  let held: QueueHeld = initialHeld;
  /** The queue's pause as the totals tell it: true when it changed. */
  const heard = (e: EngineEvent): boolean => {
    if (e.type !== 'totals') return false;
    const now = e.totals.paused?.reason ?? null;
    if (now === held) return false;
    held = now;
    return true;
  };

  if (mode === 'plain') {
    const last = new Map<number, string>();
    if (held) out.write(`${heldLine(held)}\n`);
    /** `ended`: the run has ended, and a dub still being checked is told with its files as they are. */
    const jobChanged = (j: JobView, ended = false) => {
      if (!inScope(j.id)) return;
      const line =
        settled(j) || (ended && isTerminal(j.state))
          ? finishedLine(j)
          : `  ${describeJob(j)}: ${checkingWords(j) ?? waitingText(j, Date.now()) ?? stateWords(j, held)}`;
      if (last.get(j.id) === line) return;
      last.set(j.id, line);
      out.write(`${line}\n`);
    };
    const listChanged = refetchOnListChange(refetch, jobChanged);
    const unsubscribe = api.subscribe((e: EngineEvent) => {
      if (heard(e)) out.write(`${heldLine(held)}\n`);
      const full = storage(e);
      if (full) out.write(`${full}\n`);
      listChanged.heard(e);
      if (e.type === 'job') jobChanged(e.job);
    });
    return {
      say: (line) => out.write(`${line}\n`),
      update: jobChanged,
      stop: (lastJobs = []) => {
        listChanged.stop();
        unsubscribe();
        for (const j of lastJobs) jobChanged(j, true);
      },
    };
  }

  const log = createLogUpdate(out);
  // Where each name differs from the run's other names, kept in sight when a line is cut; found again only
  // when the run's jobs change in number.
  let distinctFor = new Map<string, Distinct>();
  let namesCounted = -1;
  const distinctOf = (j: JobView): Distinct => {
    if (jobs.size !== namesCounted) {
      namesCounted = jobs.size;
      distinctFor = new Map();
    }
    const name = shownName(j);
    let found = distinctFor.get(name);
    if (!found) {
      found = distinctStart(name, new Set([...jobs.values()].map(shownName)));
      distinctFor.set(name, found);
    }
    return found;
  };
  // One column short of the edge: a line that fills the last column wraps on some terminals.
  const columns = () => Math.max(20, (out.columns ?? 80) - 1);
  let dirty = true;
  const render = () => {
    if (!dirty) return;
    dirty = false;
    const now = Date.now();
    const width = columns();
    const room = Math.max(1, Math.min(12, (out.rows ?? 24) - 3));
    const all = [...jobs.values()];
    const open = all
      .filter((j) => !settled(j))
      .sort((a, b) => ORDER[a.state] - ORDER[b.state] || a.id - b.id);
    const shown = open.slice(0, open.length > room ? room - 1 : room);
    const lines = shown.map((j) => liveLine(j, now, width, held, distinctOf(j)));
    if (open.length > shown.length) {
      const rest = open.slice(shown.length);
      const queued = rest.filter((j) => j.state === 'queued').length;
      const waits = phaseWords(held ? 'paused' : 'queued');
      lines.push(
        cliTruncate(`  … ${rest.length} more (${rest.length - queued} working, ${queued} ${waits})`, width),
      );
    }
    const done = all.filter((j) => j.state === 'completed').length;
    const failed = all.filter((j) => j.state === 'failed').length;
    const speed = open.reduce((n, j) => n + (j.bytesPerSecond ?? 0), 0);
    lines.push(
      cliTruncate(
        `  ${done}/${all.length} done${failed ? ` · ${failed} failed` : ''}${speed ? ` · ${formatSpeed(speed)}` : ''}${held ? ` · ${HELD[held]}` : ''}`,
        width,
      ),
    );
    log(lines.join('\n'));
  };
  const timer = setInterval(render, 150);
  /** `ended`: the run has ended, and a dub still being checked is told with its files as they are. */
  const jobChanged = (j: JobView, ended = false) => {
    if (!inScope(j.id)) return;
    jobs.set(j.id, ended && isTerminal(j.state) ? { ...j, delivering: false } : j);
    dirty = true;
    if ((settled(j) || (ended && isTerminal(j.state))) && !reported.has(j.id)) {
      reported.add(j.id);
      log.clear();
      out.write(`${finishedFitted(j, columns(), distinctOf(j))}\n`);
      render();
    } else if (!isTerminal(j.state)) reported.delete(j.id);
  };
  const listChanged = refetchOnListChange(refetch, jobChanged);
  const unsubscribe = api.subscribe((e: EngineEvent) => {
    if (heard(e)) dirty = true;
    const full = storage(e);
    if (full) {
      log.clear();
      out.write(`${full}\n`);
      dirty = true;
    }
    listChanged.heard(e);
    if (e.type === 'job') jobChanged(e.job);
  });
  render();
  return {
    update: jobChanged,
    say: (line) => {
      log.clear();
      out.write(`${line.replace(/^\n+/, '')}\n`);
      dirty = true;
      render();
    },
    stop: (lastJobs = []) => {
      listChanged.stop();
      unsubscribe();
      for (const j of lastJobs) jobChanged(j, true);
      clearInterval(timer);
      dirty = true;
      render();
      log.clear();
    },
  };
}

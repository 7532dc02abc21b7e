import { plural, thenSay } from '../../shared/format';
import { tally } from '../../shared/contract/batch-summary';
import type { JobView } from '../../shared/contract/jobs';
import type { QueueTotals } from '../../shared/contract/queue';
import { creditCount, describeJob, printable } from './format';

export { tally };

/**
 * Why a job failed and what to do, here: a folder it could not write into is made writable again or traded
 * for another, with the commands that retry it (a dub already made is downloaded again, not paid again).
 */
function failedWords(j: JobView): string {
  const e = j.error;
  if (!e) return 'failed';
  const unwritable = e.code === 'permission' || (e.code === 'disk' && / read-only disk$/.test(e.message));
  if (unwritable) {
    const paid = j.remoteId ? ' (the dub made is not paid again)' : '';
    return thenSay(
      e.message,
      `Make the folder writable again, then \`dubdesk retry ${j.id}\`; or \`dubdesk retry ${j.id} --out DIR\` saves the results in another folder${paid}.`,
    );
  }
  return e.remedy ? thenSay(e.message, e.remedy) : e.message;
}

/** The summary line (`This batch: 2 completed, …`), each failed job, and each input skipped. */
export function printSummary(
  { counts: t, failedJobs }: ReturnType<typeof tally>,
  label: string,
  skipped: readonly string[],
  /** The whole queue is paused: what is still open waits for resume. */
  queuePaused = false,
): void {
  const parts = [`${t.completed} completed`, `${t.failed} failed`];
  if (skipped.length) parts.push(`${plural(skipped.length, 'file')} skipped`);
  if (t.open) parts.push(`${t.open} still open${queuePaused ? ' (the queue is paused)' : ''}`);
  const estimated = t.creditsEstimated ? ` (estimated ${creditCount(t.creditsEstimated)})` : '';
  process.stderr.write(
    `${label}: ${parts.join(', ')}. Credits charged: ${creditCount(t.creditsCharged)}${estimated}.\n`,
  );
  for (const j of failedJobs)
    process.stderr.write(
      `  ✗ #${j.id} ${printable(j.sourceName)} → ${j.destLang}: ${printable(failedWords(j))}\n`,
    );
  for (const s of skipped) process.stderr.write(`  skipped: ${s}\n`);
}

/** The queue's totals after a plain `run`, labelled as such. */
export function printQueueLine(t: QueueTotals): void {
  const c = t.counts;
  const rest = t.left ? `, ${t.left} still open` : '';
  process.stderr.write(
    `Queue (all jobs): ${plural(t.total, 'job')}: ${c.completed} completed, ${c.failed} failed${c.canceled ? `, ${c.canceled} canceled` : ''}${rest}.\n`,
  );
}

/** Jobs a run left behind because each was paused on its own: named, with the command that goes on. */
export function printPausedJobs(jobs: readonly JobView[]): void {
  const paused = jobs.filter((j) => j.state === 'paused');
  if (paused.length <= 3) {
    for (const j of paused)
      process.stderr.write(`dubdesk: ${describeJob(j)} is paused; \`dubdesk resume ${j.id}\` goes on.\n`);
    return;
  }
  const ids = paused.map((j) => j.id);
  process.stderr.write(
    `dubdesk: ${paused.length} jobs are paused (${ids
      .slice(0, 10)
      .map((id) => `#${id}`)
      .join(' ')}${ids.length > 10 ? ' …' : ''}); \`dubdesk resume ID…\` goes on.\n`,
  );
}

/** Jobs made on another service or account: this run cannot move them, so it names them and says why. */
export function printJobsElsewhere(jobs: readonly JobView[]): number {
  const elsewhere = jobs.filter((j) => j.waiting?.code === 'other-service');
  if (elsewhere.length === 0) return 0;
  const one = elsewhere.length === 1;
  process.stderr.write(
    `dubdesk: ${plural(elsewhere.length, 'job')} ${one ? 'was' : 'were'} left open: ${one ? 'it was' : 'they were'} made on another service or account, which this run does not work. Point Dubdesk back at it (--base-url, DUBDESK_BASE_URL or \`dubdesk login\`) to finish ${one ? 'it' : 'them'}, or cancel ${one ? 'it' : 'them'}.\n`,
  );
  for (const j of elsewhere.slice(0, 10))
    process.stderr.write(
      `  #${j.id} ${printable(j.sourceName)} → ${j.destLang}: ${printable(j.waiting?.message ?? '')}\n`,
    );
  if (elsewhere.length > 10) process.stderr.write(`  … and ${elsewhere.length - 10} more\n`);
  return elsewhere.length;
}

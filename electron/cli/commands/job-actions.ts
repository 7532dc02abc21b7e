import type { ActionResult, JobFilter } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { describeError } from '../errors';
import { ExitCode } from '../exit-codes';
import { describeJob } from '../format';
import { jobId } from '../options';

/** The job ids of a command line, one argument each: `retry 3 7 12`. */
export const ids = (raw: string, previous: number[] = []) => [...previous, jobId(raw)];

/** Reports an action on several jobs: what changed (named, when few), and each job it skipped, with why. */
export async function reportAction(
  api: DubdeskApi,
  r: ActionResult,
  done: string,
  none: string,
): Promise<ExitCode> {
  if (r.changed.length > 0 && r.changed.length <= 10)
    for (const id of r.changed) process.stderr.write(`${done} ${describeJob(await api.getJob({ id }))}.\n`);
  else if (r.changed.length) process.stderr.write(`${done} ${r.changed.length} jobs.\n`);
  else if (r.skipped.length === 0) process.stderr.write(`${none}\n`);
  for (const s of r.skipped) process.stderr.write(`  #${s.id}: ${describeError(s.error)}\n`);
  return r.skipped.length && !r.changed.length ? ExitCode.Usage : ExitCode.Ok;
}

export interface SelectFlags {
  all?: boolean;
  failed?: boolean;
  canceled?: boolean;
}

/** The ids given, or a filter from the flags; exactly one of the two. */
export function selection(
  given: number[],
  byFlag: JobFilter | null,
): { ids: number[] } | { filter: JobFilter } | null {
  if (given.length && byFlag) return null;
  if (given.length) return { ids: given };
  if (byFlag) return { filter: byFlag };
  return null;
}

/** A command line that asks for nothing sensible: its one line, and the usage exit code. */
export function usage(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = ExitCode.Usage;
}

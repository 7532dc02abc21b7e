import type { ActionResult, JobDetail } from '../../../shared/contract/jobs';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { describeJob, printable, shellArg } from '../format';

/** The command that dubs a job again, with its own choices (the engine reads them), into `outDir` (charged). */
export function dubAgainCommand(j: JobDetail, outDir: string): string {
  return `dubdesk again ${j.id} --out ${shellArg(outDir)}`;
}

/** A skipped job the CLI answers itself: a completed one whose results are gone, so there was nothing to move. */
export const nothingToMove = (s: ActionResult['skipped'][number]) =>
  s.error.code === 'not-found' && s.error.field === 'outDir';

/**
 * `retry --out DIR` of completed jobs: their results moved there (not dubbed again, not charged), or, gone
 * from disk, the exact command that dubs them again into DIR.
 */
export async function reportCompleted(api: DubdeskApi, r: ActionResult, outDir: string): Promise<void> {
  const moved = r.moved ?? [];
  if (moved.length > 10)
    process.stderr.write(
      `Moved the results of ${moved.length} completed jobs to ${printable(outDir)} (already dubbed: nothing is dubbed or charged again).\n`,
    );
  else
    for (const id of moved)
      process.stderr.write(
        `Moved the results of ${describeJob(await api.getJob({ id }))} to ${printable(outDir)} (already dubbed: nothing is dubbed or charged again).\n`,
      );
  for (const s of r.skipped.filter(nothingToMove)) {
    const job = await api.getJob({ id: s.id });
    process.stderr.write(
      `  #${s.id}: ${printable(s.error.message)}. To dub it again into that folder (charged):\n    ${printable(dubAgainCommand(job, outDir))}\n`,
    );
  }
}

import { basename } from 'node:path';
import { qcOf } from '../../db/job-store/deliver-values';
import type { JobRow, JobStore } from '../../db/jobs';

/**
 * A copy's dub is the dub of the job its files were linked from (the same content, the same language): on the
 * audio path the sound that job's video was made from is gone by the time the copy is checked, so the dub's
 * own length against the source is that job's, as its QC recorded it. Null when the copy's donor is not
 * known any more, or its QC did not know that length either.
 */
export function copiedDubDelta(store: Pick<JobStore, 'sameContent' | 'qc'>, row: JobRow): number | null {
  if (row.copied_from === null) return null;
  for (const donor of store.sameContent.completedDubsOf(row)) {
    if (donor.id === row.id) continue;
    const qc = qcOf(donor);
    if (qc?.measured?.kind !== 'rebuilt' || qc.durationDelta === null) continue;
    if (store.qc.doneOutputs(donor.id).some((o) => basename(o.path) === row.copied_from))
      return qc.durationDelta;
  }
  return null;
}

import type { ActionResult, JudgeQcRequest } from '../../../../shared/contract/jobs';
import type { ContractError } from '../../../../shared/contract/errors';
import type { JobStore } from '../../db/jobs';
import { deliverOf, qcOf } from '../../db/job-store/deliver-values';
import { judgeAgainst } from '../../media/qc/loudness-rules';

const notJudged = (code: ContractError['code'], message: string, remedy: string): ContractError => ({
  code,
  message,
  remedy,
});

/**
 * Finished dubs judged again against another loudness target, from the figures their QC stored: nothing
 * is measured, sent or charged. The target stays theirs (a later check of the same dub uses it too).
 */
export function judgeQcAgain(store: JobStore, req: JudgeQcRequest): ActionResult {
  const changed: number[] = [];
  const skipped: ActionResult['skipped'] = [];
  for (const id of new Set(req.ids)) {
    const row = store.reads.shown(id);
    const qc = row ? qcOf(row) : null;
    if (!row)
      skipped.push({
        id,
        error: notJudged('not-found', `no job ${id}`, 'List the queue to see the job numbers.'),
      });
    else if (row.state !== 'completed')
      skipped.push({
        id,
        error: notJudged(
          'conflict',
          `job ${id} is ${row.state}: only a finished dub has a QC to judge again`,
          'Wait for it to finish; its QC runs after its download.',
        ),
      });
    else if (!qc)
      skipped.push({
        id,
        error: notJudged(
          'conflict',
          `job ${id} is not checked yet`,
          'Its QC runs after its download: `dubdesk run --until-done` finishes it; then judge it again.',
        ),
      });
    else {
      const choice = deliverOf(row);
      const deliver = choice ? JSON.stringify({ ...choice, loudness: req.loudness }) : row.deliver;
      if (store.qc.judgedAgain(row, judgeAgainst(qc, req.loudness, id), deliver)) changed.push(id);
      else
        skipped.push({
          id,
          error: notJudged('conflict', `job ${id} changed meanwhile`, 'Look at its QC, then try again.'),
        });
    }
  }
  return { changed, skipped };
}

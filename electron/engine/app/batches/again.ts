import type { AddResult, AddRequest } from '../../../../shared/contract/batches';
import { DeliverChoiceSchema } from '../../../../shared/contract/deliver';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { JobRow, JobStore } from '../../db/jobs';
import { deliverOf } from '../../db/job-store/deliver-values';
import { parseSelection } from '../../flows/fetch-outputs';

/** A job the user may dub again: one still remembered (a job cleared from the list is). */
export function jobToDubAgain(store: JobStore, id: number): JobRow {
  const row = store.reads.get(id);
  if (!row)
    throw new DubdeskError('not-found', `there is no job ${id}`, {
      remedy: 'List the jobs (`dubdesk status`) to see their numbers.',
      field: 'id',
    });
  return row;
}

/**
 * The batch that dubs a job again exactly as it was asked for: its source into its language, with the
 * choices its row stored (what it sends, which audio track, its outputs and naming, its package, subtitle formats, default
 * sound and loudness target), so it goes the same way and is billed the same length. `outDir`: another
 * folder than its own.
 */
export function againRequest(row: JobRow, outDir?: string): AddRequest {
  const deliver = deliverOf(row) ?? DeliverChoiceSchema.parse({});
  return {
    inputs: [row.source],
    to: [row.dest_lang],
    from: row.source_lang,
    studio: row.studio === 1,
    api: row.api,
    outDir: outDir ?? row.out_dir,
    outputs: parseSelection(row.outputs_wanted),
    naming: row.naming,
    uploadOnce: 'auto',
    send: row.send,
    audioTrack: row.audio_track,
    ...deliver,
    force: false,
    again: true,
  };
}

/** The first of each key, in order. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

/** Several "again" batches' answers as one. */
export function mergedResults(results: readonly AddResult[]): AddResult {
  const sum = (of: (r: AddResult) => number) => results.reduce((total, r) => total + of(r), 0);
  return {
    added: results.flatMap((r) => r.added),
    alreadyQueued: results.flatMap((r) => r.alreadyQueued),
    retried: results.flatMap((r) => r.retried),
    alreadyDone: results.flatMap((r) => r.alreadyDone),
    refused: results.flatMap((r) => r.refused),
    credits: sum((r) => r.credits),
    unknownLengthJobs: sum((r) => r.unknownLengthJobs),
    balance: results.at(-1)?.balance ?? null,
    notice: results.find((r) => r.notice)?.notice ?? null,
    pastBudgetBy: sum((r) => r.pastBudgetBy),
  };
}

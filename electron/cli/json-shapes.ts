import { z } from 'zod';
import { ProfileV2 } from '../../shared/api/v2';
import { LanguageSchema } from '../../shared/contract/account';
import {
  BatchSummarySchema,
  BatchTallySchema,
  type BatchSummary,
  type BatchTally,
} from '../../shared/contract/batch-summary';
import { AddResultSchema, EstimateSchema, FileEstimateSchema } from '../../shared/contract/batches';
import { ContractErrorSchema } from '../../shared/contract/errors';
import { QcSchema } from '../../shared/contract/deliver';
import { JobStateSchema, JobViewSchema } from '../../shared/contract/jobs';
import { QueueTotalsSchema } from '../../shared/contract/queue';
import { ApproveResultSchema, WatchFileSchema, WatchFolderSchema } from '../../shared/contract/watch';

/**
 * What each command prints with `--json`: one shape per command whatever happened, built from the
 * contract's schemas (a job here is the job every face sees). docs/cli-json.md describes them; the tests
 * parse the real output with these. Strict: a field added without being documented fails there.
 */

/** An input that did not become a job (add, dub, estimate): which, why, and what to do. */
export const RejectedJson = ContractErrorSchema.extend({ input: z.string() }).strict();
export type RejectedJson = z.infer<typeof RejectedJson>;

export const StatusJson = z.object({ queue: QueueTotalsSchema, jobs: z.array(JobViewSchema) }).strict();
export type StatusJson = z.infer<typeof StatusJson>;

export const AddJson = AddResultSchema.omit({ refused: true })
  .extend({
    /** The batch's jobs: added, retried and already queued. */
    jobs: z.array(z.number().int()),
    rejected: z.array(RejectedJson),
  })
  .strict();
export type AddJson = z.infer<typeof AddJson>;

export { RUN_OUTCOMES } from '../../shared/contract/batch-summary';

/** What one run did to its jobs (a `dub` batch, or every job for `run`), compared before and after. */
export const RunTallyJson = BatchTallySchema;
export type RunTallyJson = BatchTally;

/** A run's summary: the batch summary every face gives (a when-done command reads the same). */
export const RunJson = BatchSummarySchema;
export type RunJson = BatchSummary;

/** `dub`: what was added, then what the run did (null when nothing was run: nothing new, or all refused). */
export const DubJson = AddJson.extend({ run: RunJson.nullable() }).strict();
export type DubJson = z.infer<typeof DubJson>;

export const EstimateJson = EstimateSchema.omit({ files: true })
  .extend({
    /** The files that would be queued (refused ones are in `rejected`). */
    files: z.array(FileEstimateSchema.omit({ problem: true }).strict()),
    rejected: z.array(RejectedJson),
  })
  .strict();
export type EstimateJson = z.infer<typeof EstimateJson>;

export const LangsJson = z.array(LanguageSchema.pick({ code: true, name: true }).strict());

/** `me`: the profile as the service names its fields (what scripts read before the contract existed). */
export const MeJson = ProfileV2.strict();

/** `watch --list`. */
export const WatchListJson = z.object({ folders: z.array(WatchFolderSchema) }).strict();
/** `watch --files DIR`. */
export const WatchFilesJson = z
  .object({ folder: z.number().int(), files: z.array(WatchFileSchema) })
  .strict();
/** `watch DIR`, `watch --pause DIR`, `watch --resume DIR`: the folder after the change. */
export const WatchFolderJson = WatchFolderSchema;
/** `watch --approve DIR`. */
export const WatchApproveJson = ApproveResultSchema;
/** `watch --reprocess FILE`: the file after it was queued again. */
export const WatchReprocessJson = WatchFileSchema;

/** `qc`: each job asked for (or every completed one) with its QC (null: not checked yet), and ids not found. */
export const QcJson = z
  .object({
    jobs: z.array(
      z
        .object({
          id: z.number().int(),
          source: z.string(),
          destLang: z.string(),
          state: JobStateSchema,
          qc: QcSchema.nullable(),
        })
        .strict(),
    ),
    missing: z.array(z.number().int()),
  })
  .strict();

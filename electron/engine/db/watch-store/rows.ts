import { z } from 'zod';
import { ContractErrorSchema, type ContractError } from '../../../../shared/contract/errors';
import {
  WATCH_FILE_STATUSES,
  WatchPresetSchema,
  type WatchFileStatus,
  type WatchPreset,
} from '../../../../shared/contract/watch';
import { JOB_STATES } from '../../../../shared/contract/jobs';

/** A row of `watch_folders` as stored; the preset JSON is parsed with the contract's own schema. */
export const WatchFolderRow = z.object({
  id: z.number().int(),
  path: z.string(),
  preset: z.string().transform((raw, ctx): WatchPreset => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'the stored preset is not JSON' });
      return z.NEVER;
    }
    const parsed = WatchPresetSchema.safeParse(json);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `the stored preset is damaged: ${parsed.error.message}` });
      return z.NEVER;
    }
    return parsed.data;
  }),
  preset_version: z.number().int(),
  paused: z.number().int(),
  status: z.enum(['starting', 'watching', 'unavailable']),
  status_message: z.string().nullable(),
  polled: z.number().int(),
  poll_reason: z.string().nullable(),
  revision: z.number().int(),
  rescan_asked: z.number().int(),
  last_activity_at: z.number().int().nullable(),
  last_scan_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  outcomes_signature: z.string(),
  snapshot: z.string().nullable(),
  counts_version: z.number().int(),
  counts: z.string().nullable(),
  counts_at: z.number().int(),
});
export type WatchFolderRow = z.infer<typeof WatchFolderRow>;

/** What a file row records (see migration 3): `ready` = hashed, about to be planned; `output` = ours. */
export const FILE_ROW_STATUSES = [
  'settling',
  'waiting',
  'attention',
  'ready',
  'awaiting-approval',
  'taken',
  'duplicate',
  'output',
] as const;
export type FileRowStatus = (typeof FILE_ROW_STATUSES)[number];

export const Outcome = z.enum(['done', 'failed', 'canceled']);
export type Outcome = z.infer<typeof Outcome>;

export const WatchFileRow = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  path: z.string(),
  current: z.number().int(),
  version: z.number().int(),
  status: z.enum(FILE_ROW_STATUSES),
  size: z.number().int(),
  mtime_ms: z.number().int(),
  changed_at: z.number().int(),
  wait_since: z.number().int(),
  hash: z.string().nullable(),
  preset_version: z.number().int().nullable(),
  duration: z.number().nullable(),
  credits: z.number().int().nullable(),
  approved: z.number().int(),
  forced: z.number().int(),
  attempts: z.number().int(),
  problem: z
    .string()
    .nullable()
    .transform((raw): ContractError | null => {
      if (raw === null) return null;
      try {
        const parsed = ContractErrorSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : { code: 'internal', message: 'a damaged problem record' };
      } catch {
        return { code: 'internal', message: 'a damaged problem record' };
      }
    }),
  next_check_at: z.number().int().nullable(),
  duplicate_of: z.number().int().nullable(),
  outcome: Outcome.nullable(),
  moved_to: z.string().nullable(),
  gone: z.number().int(),
  first_seen_at: z.number().int(),
  taken_at: z.number().int().nullable(),
  updated_at: z.number().int(),
  rev: z.number().int(),
});
export type WatchFileRow = z.infer<typeof WatchFileRow>;

/** What may change on a file row (the problem as a ContractError; the store writes it as JSON). */
export type FilePatch = Partial<
  Omit<WatchFileRow, 'id' | 'folder_id' | 'rev' | 'updated_at' | 'problem'> & {
    problem: ContractError | null;
  }
>;

export const ViewRow = WatchFileRow.extend({
  shown: z.enum(WATCH_FILE_STATUSES),
  duplicate_path: z.string().nullable(),
});
export type WatchFileViewRow = z.infer<typeof ViewRow>;

/** A linked job as coverage sees it: which file, whose job, which language, where it is. */
export const LinkedJob = z.object({
  file_id: z.number().int(),
  job_id: z.number().int(),
  own: z.number().int(),
  dest_lang: z.string(),
  state: z.enum(JOB_STATES),
});
export type LinkedJob = z.infer<typeof LinkedJob>;

/** A current row as a full scan needs it. */
export const PresentRow = WatchFileRow.pick({
  id: true,
  path: true,
  status: true,
  size: true,
  mtime_ms: true,
  moved_to: true,
  gone: true,
});
export type PresentRow = z.infer<typeof PresentRow>;

export interface FilesFilter {
  statuses?: readonly WatchFileStatus[] | undefined;
  search?: string | undefined;
}

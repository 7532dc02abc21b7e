import { z } from 'zod';
import {
  DeliverChoiceSchema,
  QcSchema,
  type DeliverChoice,
  type Qc,
} from '../../../../shared/contract/deliver';
import type { JobRow } from './rows';

/** A job's delivery choices, or null for a job made before they existed (nothing is made for it). */
export function deliverOf(row: Pick<JobRow, 'deliver'>): DeliverChoice | null {
  if (row.deliver === null) return null;
  try {
    return DeliverChoiceSchema.parse(JSON.parse(row.deliver));
  } catch {
    return DeliverChoiceSchema.parse({});
  }
}

/** A job's QC as stored, checked: a damaged value reads as not checked yet (it is then checked again). */
export function qcOf(row: Pick<JobRow, 'qc'>): Qc | null {
  if (row.qc === null) return null;
  try {
    const parsed = QcSchema.safeParse(JSON.parse(row.qc));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A source's package in one output folder, as `packages` holds it. */
export const PackageRow = z.object({
  id: z.number().int(),
  source: z.string(),
  out_dir: z.string(),
  format: z.enum(['mkv', 'mp4']),
  default_audio: z.string(),
  naming: z.enum(['suffix', 'folders']),
  state: z.enum(['waiting', 'making', 'done', 'failed']),
  now: z.number().int(),
  job_ids: z.string(),
  languages: z.string(),
  path: z.string().nullable(),
  error: z.string().nullable(),
  updated_at: z.number().int(),
});
export type PackageRow = z.infer<typeof PackageRow>;

const Ids = z.array(z.number().int());
const Langs = z.array(z.string());
const jsonOr = <T>(schema: z.ZodType<T>, json: string, fallback: T): T => {
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
};
/** The jobs a package holds (a damaged value: none, so it is made again). */
export const idsOf = (json: string): number[] => jsonOr(Ids, json, []);
/** The languages a package holds, in its order. */
export const languagesOf = (json: string): string[] => jsonOr(Langs, json, []);

/** A SubRip file made from a dub's WebVTT, to be recorded as the job's own output. */
export interface MadeSrt {
  path: string;
  bytes: number;
  sha256: string;
}

import { z } from 'zod';
import { MeasuredSeconds, RemoteErrorMessage } from './common';

export const ProfileV1 = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  seconds: z.number(),
  defaultDubLang: z.string(),
  subscriptionStatus: z.string().nullable(),
  subscriptionPlan: z.string().nullable(),
  createdAt: z.string(),
});
export type ProfileV1 = z.infer<typeof ProfileV1>;

export const DubV1 = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  sourceLang: z.string(),
  destLang: z.string(),
  externalStatusId: z.number().int().min(1).max(5),
  progressPercentage: z.number().min(0).max(100),
  externalErrorMessage: RemoteErrorMessage,
  duration: z.number(),
  measuredDuration: MeasuredSeconds.nullable(),
  isStudioQuality: z.boolean(),
  source: z.string(),
  createdAt: z.string(),
});
export type DubV1 = z.infer<typeof DubV1>;

/** Of a dub whatever else it says: completed, and what it measured (what the service charged for). */
export const CompletedV1 = z
  .object({ externalStatusId: z.literal(5), measuredDuration: MeasuredSeconds.nullable() })
  .transform((d) => d.measuredDuration);
export const DubListV1 = z.array(DubV1);
export type DubListV1 = z.infer<typeof DubListV1>;
/** The list as it arrives: each dub is checked on its own, so one bad dub spoils only itself. */
export const DubPageV1 = z.array(z.unknown());

export const InitDubV1Body = z.object({
  fileType: z.string().min(1),
  name: z.string().min(1),
  source_lang: z.string().min(1),
  dest_lang: z.string().min(1),
  duration: z.number().nonnegative().optional(),
  isStudioQuality: z.boolean().optional(),
});
export type InitDubV1Body = z.infer<typeof InitDubV1Body>;

export const InitDubV1Response = z.object({
  file: z.object({
    id: z.string(),
    name: z.string(),
    source: z.string(),
    externalStatusId: z.number().int(),
    internalStatusId: z.number().int(),
  }),
  uploadUrl: z.string().url(),
});
export type InitDubV1Response = z.infer<typeof InitDubV1Response>;

export const StartDubV1Body = z.object({ fileId: z.string().min(1) });
export const StartDubV1Response = z.object({ success: z.boolean(), fileId: z.string() });
export type StartDubV1Response = z.infer<typeof StartDubV1Response>;

import { z } from 'zod';
import { RemoteErrorMessage } from './common';

const StatusRef = z.object({ id: z.number().int(), name: z.string(), alias: z.string() });

export const ProjectLegacy = z.object({
  id: z.string(),
  createdAt: z.string(),
  userId: z.string(),
  name: z.string(),
  type: z.string(),
  key: z.string(),
  uploadUrl: z.string().url(),
  source_lang: z.string(),
  dest_lang: z.string(),
  internalStatusId: z.number().int().min(1).max(10),
  externalStatusId: z.number().int().min(1).max(5),
  progressPercentage: z.number().min(0).max(100),
  duration: z.number().int(),
  errorMessage: RemoteErrorMessage,
  externalErrorMessage: RemoteErrorMessage,
  isWatermark: z.boolean(),
  source: z.string(),
});
export type ProjectLegacy = z.infer<typeof ProjectLegacy>;

export const ProjectLegacyListItem = ProjectLegacy.extend({
  internalStatus: StatusRef,
  externalStatus: StatusRef,
});
export type ProjectLegacyListItem = z.infer<typeof ProjectLegacyListItem>;
export const ProjectLegacyList = z.array(ProjectLegacyListItem);
export type ProjectLegacyList = z.infer<typeof ProjectLegacyList>;

export const InitDubLegacyBody = z.object({
  dest_lang: z.string().min(1),
  duration: z.number().int().nonnegative(),
  fileType: z.string().min(1),
  name: z.string().min(1),
  source_lang: z.string().min(1),
});
export type InitDubLegacyBody = z.infer<typeof InitDubLegacyBody>;

export const LEGACY_FILE_TYPE = 'video/mp4';

export const StartDubLegacyBody = z.object({ id: z.string().min(1) });
export const StartDubLegacyResponse = z.object({ status: z.literal('success') });

import { z } from 'zod';
import { MeasuredSeconds, OutputLink, RemoteErrorMessage } from './common';

export const ProfileV2 = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  username: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  seconds: z.number(),
  default_dub_lang: z.string(),
  subscription_status: z.string().nullable(),
  subscription_plan: z.string().nullable(),
  created_at: z.string(),
});
export type ProfileV2 = z.infer<typeof ProfileV2>;

export const DubV2 = z.object({
  id: z.string(),
  dubbing_id: z.string(),
  project_id: z.string(),
  name: z.string(),
  type: z.string(),
  source_lang: z.string(),
  dest_lang: z.string(),
  external_status_id: z.number().int().min(1).max(5),
  progress_percentage: z.number().min(0).max(100),
  external_error_message: RemoteErrorMessage,
  duration: z.number(),
  measured_duration: MeasuredSeconds.nullable(),
  is_studio_quality: z.boolean(),
  source: z.string(),
  created_at: z.string(),
  // Keys are output types; unknown future types are kept so a client can ignore them knowingly.
  outputs: z.record(z.string(), OutputLink),
});
export type DubV2 = z.infer<typeof DubV2>;

/** Of a dub whatever else it says: completed, and what it measured (what the service charged for). */
export const CompletedV2 = z
  .object({ external_status_id: z.literal(5), measured_duration: MeasuredSeconds.nullable() })
  .transform((d) => d.measured_duration);

/** Who a listed dub is, read from an item that breaks `DubV2` elsewhere: enough to tell it is one's own. */
export const DubV2Identity = DubV2.pick({ id: true, name: true, dest_lang: true, created_at: true }).extend({
  duration: z.unknown(),
  external_status_id: z.unknown(),
});
export type DubV2Identity = z.infer<typeof DubV2Identity>;

export const Pagination = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
});
export type Pagination = z.infer<typeof Pagination>;

export const DubListV2 = z.object({ dubs: z.array(DubV2), pagination: Pagination });
export type DubListV2 = z.infer<typeof DubListV2>;
/** A list page as it arrives: each dub is checked on its own, so one bad dub spoils only itself. */
export const DubPageV2 = z.object({ dubs: z.array(z.unknown()), pagination: Pagination });

export const V2_MAX_PAGE_SIZE = 100;
export const V2_DEFAULT_PAGE_SIZE = 20;

/** Fields of `POST /api/v2/dubs` other than `file` (strings in multipart, typed in JSON). */
export const CreateDubV2Fields = z.object({
  dest_lang: z.string().min(1),
  source_lang: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  duration: z.number().nonnegative().optional(),
  is_studio_quality: z.boolean().optional(),
  source_url: z.string().optional(),
});
export type CreateDubV2Fields = z.infer<typeof CreateDubV2Fields>;

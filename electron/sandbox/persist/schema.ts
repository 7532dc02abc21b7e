import { z } from 'zod';
import { OUTPUT_TYPES } from '../../../shared/api/common';

/** The state directory's layout version; a directory written by a newer sandbox is refused, not guessed at. */
export const STATE_FORMAT = 1;

export const MetaFile = z.object({
  format: z.literal(STATE_FORMAT),
  /** Hex HMAC key of the URL signer: links handed out before a restart stay valid until they expire. */
  signingSecret: z.string().regex(/^[0-9a-f]{64}$/),
  clockOffsetMs: z.number(),
  /** The port it listened on last, tried first next time so handed-out URLs still reach it. */
  port: z.number().int().min(1).max(65535).nullable(),
});
export type MetaFile = z.infer<typeof MetaFile>;

export const AccountRecord = z.object({
  id: z.string().min(1),
  apiKey: z.string().min(1),
  email: z.string(),
  name: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  /**
   * The balance before any charge: the live balance is this less the charges kept with the dubs. So a
   * charge is saved once, with its dub, and the two files can never disagree after a crash.
   */
  creditBase: z.number(),
  defaultDubLang: z.string(),
  createdAt: z.string(),
});
export const AccountsFile = z.object({ format: z.literal(STATE_FORMAT), accounts: z.array(AccountRecord) });
export type AccountsFile = z.infer<typeof AccountsFile>;

/** Ids and media types end up in URLs and response headers: only plain tokens are read back. */
const Token = z.string().regex(/^[\w-]{1,100}$/);
const MediaType = z.string().regex(/^[a-z0-9][\w.+-]*\/[\w.+-]+$/i);

const ArtifactRecord = z.object({
  /** Relative to the state directory, so the directory can move. */
  path: z.string(),
  contentType: MediaType,
  fileName: z.string(),
});

const ChargeRecord = z.object({
  dubId: z.string(),
  userId: z.string(),
  seconds: z.number(),
  measuredDuration: z.number(),
  studio: z.boolean(),
  at: z.string(),
});

export const DubRecord = z.object({
  format: z.literal(STATE_FORMAT),
  id: Token,
  projectId: z.string(),
  key: z.string(),
  ownerId: z.string(),
  generation: z.enum(['v2', 'v1', 'legacy']),
  name: z.string(),
  type: MediaType,
  sourceLang: z.string(),
  destLang: z.string(),
  duration: z.number(),
  studio: z.boolean(),
  createdAt: z.iso.datetime(),
  seq: z.number().int().positive(),
  uploadPath: z.string(),
  uploaded: z.boolean(),
  uploadUrl: z.string().nullable(),
  queuedAt: z.number().nullable(),
  externalStatusId: z.number().int().min(1).max(5),
  internalStatusId: z.number().int().min(1).max(10),
  progress: z.number(),
  errorMessage: z.string().nullable(),
  measuredDuration: z.number().nullable(),
  charged: z.boolean(),
  charge: ChargeRecord.nullable(),
  failsInPipeline: z.boolean(),
  artifacts: z.partialRecord(z.enum(OUTPUT_TYPES), ArtifactRecord).nullable(),
  media: z
    .union([
      z.object({ ok: z.literal(true), duration: z.number() }),
      z.object({ ok: z.literal(false), error: z.string() }),
    ])
    .nullable(),
  frozen: z.boolean(),
});
export type DubRecord = z.infer<typeof DubRecord>;

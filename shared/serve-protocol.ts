import { z } from 'zod';
import { ContractErrorSchema } from './contract/errors';

/*
 * Web mode's wire protocol: the routes and constants (serve-routes.ts, free of zod, so the page's first calls
 * can use them before any schema is built: renderer/src/first-calls.ts) and the schemas of what travels.
 */
export * from './serve-routes';

/** Every JSON answer: a value, or a contract error. */
export const ReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ContractErrorSchema }),
]);
export type Reply = z.infer<typeof ReplySchema>;

/** `GET /session`: whether the browser asking has a live session. */
export const SessionStateSchema = z.object({ signedIn: z.boolean() });

/** `POST /session/link`: a fresh one-time address for the running server. */
export const NewLinkSchema = z.object({
  address: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}\/#code=[A-Za-z0-9_-]{43}$/),
});

export const StagedFileSchema = z.object({ path: z.string().min(1) });
export type StagedFile = z.infer<typeof StagedFileSchema>;

export const MediaTokenSchema = z.object({
  /** Plays the preview (`/media/<job>/<kind>`, as `?mt=`), and nothing else. */
  token: z.string().min(32),
  /** Downloads results (`/media/<job>/file/<n>`, `/media/results.zip`, as `?dt=`), and nothing else. */
  download: z.string().min(32),
  /** How long the token stays valid after its last use, in seconds. */
  idleSeconds: z.number().positive(),
});
export type MediaToken = z.infer<typeof MediaTokenSchema>;

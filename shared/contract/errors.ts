import { z } from 'zod';

/**
 * Stable error codes that cross the contract (IPC, HTTP, in-process). Faces switch on the code; the
 * message is worded for any face (no CLI flags, no buttons); a face adds its own hints.
 */
export const ERROR_CODES = [
  /** The API key is missing or the service rejected it. */
  'auth',
  /** Not enough credits for the batch (or the service answered 402). */
  'credits',
  /** The service cannot be reached. */
  'offline',
  /** A language code the service (or the chosen generation) does not take. */
  'bad-language',
  /** A file that is not video or audio, empty, or unreadable as media. */
  'not-media',
  /** Over a size limit (1 GB for v2 uploads). */
  'too-large',
  /** No such job, folder or file. */
  'not-found',
  /** The request itself is malformed (bad field, wrong type); `field` names it. */
  'bad-request',
  /** The action does not apply to the thing in its current state (retry a completed job). */
  'conflict',
  /** Another Dubdesk process is working this queue. */
  'busy',
  /** Configuration is missing or contradictory (no service address, no legacy root). */
  'config',
  /** A local disk problem: full, read-only, or a folder that cannot be written. */
  'disk',
  /** A file or folder the user cannot read or write. */
  'permission',
  /** The service misbehaved (server errors, malformed answers) beyond retrying. */
  'service',
  /** The dub failed on the service. */
  'remote-failed',
  /** The dub disappeared from the service. */
  'remote-missing',
  /** The operation was canceled. */
  'canceled',
  /** A bug: the message says what, the log has the rest. */
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ContractErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** What the user can do about it, in words any face can show. */
  remedy: z.string().optional(),
  /** The request field at fault, for forms (`to`, `outDir`, `inputs.2`). */
  field: z.string().optional(),
  /** `busy`: the other Dubdesk that works the queue, for a face to name it. */
  holder: z.object({ pid: z.number().int(), host: z.string() }).optional(),
});
export type ContractError = z.infer<typeof ContractErrorSchema>;

/** The one error type every face throws and catches; it serializes to a ContractError and back. */
export class DubdeskError extends Error {
  readonly code: ErrorCode;
  readonly remedy: string | undefined;
  readonly field: string | undefined;
  readonly holder: ContractError['holder'];

  constructor(
    code: ErrorCode,
    message: string,
    opts: { remedy?: string; field?: string; holder?: ContractError['holder'] } = {},
  ) {
    super(message);
    this.name = 'DubdeskError';
    this.code = code;
    this.remedy = opts.remedy;
    this.field = opts.field;
    this.holder = opts.holder;
  }

  toJSON(): ContractError {
    return {
      code: this.code,
      message: this.message,
      ...(this.remedy !== undefined ? { remedy: this.remedy } : {}),
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.holder !== undefined ? { holder: this.holder } : {}),
    };
  }

  static from(e: ContractError): DubdeskError {
    return new DubdeskError(e.code, e.message, {
      ...(e.remedy !== undefined ? { remedy: e.remedy } : {}),
      ...(e.field !== undefined ? { field: e.field } : {}),
      ...(e.holder !== undefined ? { holder: e.holder } : {}),
    });
  }
}

/** Anything thrown, as a ContractError: a DubdeskError keeps its fields, anything else is `internal`. */
export function toContractError(e: unknown): ContractError {
  if (e instanceof DubdeskError) return e.toJSON();
  const parsed = ContractErrorSchema.safeParse(e);
  if (parsed.success) return parsed.data;
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: message || 'unexpected error' };
}

/** A zod failure as a `bad-request` naming the first bad field. */
export function badRequest(error: z.ZodError, where = 'request'): DubdeskError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  return new DubdeskError('bad-request', `${field ?? where}: ${issue?.message ?? 'invalid'}`, {
    ...(field ? { field } : {}),
  });
}

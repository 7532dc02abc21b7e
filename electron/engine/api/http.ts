import got, { RequestError, type Got, type OptionsInit, type Response } from 'got';
import type { z } from 'zod';
import { ErrorBody } from '../../../shared/api/common';
import { ApiError, kindForStatus, redact } from './errors';

export type ProgressListener = (transferred: number, total: number | null) => void;

export interface HttpOptions {
  /** Header carrying the key, per generation: `apikey` (v1, v2) or `ApiKey` (legacy). None for pre-signed links. */
  auth?: { header: string; key: string };
  timeoutMs?: number;
}

/**
 * The one HTTP layer: timeouts, no automatic retries (the queue retries, persisted, with backoff),
 * and every non-2xx turned into a typed ApiError carrying the service's `{ error }` message.
 */
export class Http {
  readonly got: Got;

  constructor(opts: HttpOptions = {}) {
    // Idle limits, not totals: a 1 GB upload on a slow line may take an hour and must not be cut off,
    // but a connection where nothing moves for this long is dead.
    const timeout = opts.timeoutMs ?? 60_000;
    this.got = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      timeout: {
        lookup: 10_000,
        connect: 10_000,
        secureConnect: 10_000,
        socket: timeout,
        response: timeout,
      },
      headers: { 'user-agent': 'Dubdesk', ...(opts.auth ? { [opts.auth.header]: opts.auth.key } : {}) },
    });
  }

  /** Sends a request and parses a 2xx JSON body with `schema`. */
  async json<S extends z.ZodType>(
    schema: S,
    url: string,
    options: OptionsInit = {},
    onUpload?: ProgressListener,
  ): Promise<z.infer<S>> {
    const res = await this.send(url, options, onUpload);
    return parseBody(schema, res, url);
  }

  async send(url: string, options: OptionsInit = {}, onUpload?: ProgressListener): Promise<Response<string>> {
    let res: Response<string>;
    try {
      const pending = this.got(url, { ...options, responseType: 'text' } as OptionsInit & {
        responseType: 'text';
      });
      if (onUpload)
        pending.on('uploadProgress', (p: { transferred: number; total?: number }) =>
          onUpload(p.transferred, p.total ?? null),
        );
      res = (await pending) as Response<string>;
    } catch (e) {
      throw toNetworkError(e, url);
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    throw errorFromResponse(res.statusCode, res.body, url);
  }
}

export function toNetworkError(e: unknown, url: string): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof RequestError && e.code === 'ERR_ABORTED') return new ApiError('canceled', 'canceled');
  if (e instanceof Error && e.name === 'AbortError') return new ApiError('canceled', 'canceled');
  const code = e instanceof RequestError ? e.code : '';
  const what = e instanceof Error ? e.message : String(e);
  return new ApiError('network', `cannot reach ${redact(url)} (${code || what})`);
}

export function errorFromResponse(status: number, text: string, url: string): ApiError {
  let message = `HTTP ${status}`;
  let remoteId: string | null = null;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) {
      message = parsed.data.error;
      remoteId = parsed.data.id ?? null;
    }
  } catch {
    /* not JSON: keep the status line */
  }
  return new ApiError(
    kindForStatus(status),
    `${message} (HTTP ${status} from ${redact(url)})`,
    status,
    remoteId,
  );
}

function parseBody<S extends z.ZodType>(schema: S, res: Response<string>, url: string): z.infer<S> {
  let data: unknown;
  try {
    data = JSON.parse(res.body);
  } catch {
    throw new ApiError('protocol', `unexpected non-JSON answer from ${redact(url)}`, res.statusCode);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(
      'protocol',
      `unexpected answer from ${redact(url)}: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
      res.statusCode,
    );
  }
  return parsed.data;
}

import type { z } from 'zod';
import { errorFromResponse } from './classify';
import { ApiError, redact } from './errors';
import type { FileBody } from './file-body';
import type { SourceReads } from './body-stream';
import { DEFAULT_LIMITS, withLimits, type HttpLimits } from './limits';
import { MAX_JSON_DEPTH, nestsDeeper } from './json-depth';
import { httpUrl, redirectTarget } from './links';
import type { RateCap } from './rate-cap';
import { scrubValue, type Secrets } from './scrub';
import {
  contentLength,
  MAX_REDIRECTS,
  readCapped,
  timeoutsFor,
  Transport,
  utf8,
  type Answer,
  type ProgressListener,
  type ResponseHeaders,
} from './transport';

export type { ProgressListener } from './transport';

export interface HttpOptions {
  /** Header carrying the key, per generation: `apikey` (v1, v2) or `ApiKey` (legacy). None for pre-signed links. */
  auth?: { header: string; key: string };
  limits?: Partial<HttpLimits>;
  /** How files going out are read (tests give reads that hang). */
  reads?: SourceReads | undefined;
  /** Keys to scrub from the service's answers besides `auth`'s (any stored). */
  secrets?: Secrets | undefined;
  /** The cap files going out keep to (shared by every upload at once). */
  uploadCap?: RateCap | undefined;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT';
  json?: unknown;
  body?: FileBody | Buffer;
  headers?: Record<string, string>;
  searchParams?: Record<string, string | number>;
  signal?: AbortSignal | undefined;
  /** The body is big (a file): no deadline while it is sent, only for the answer after it. */
  upload?: boolean;
  onUpload?: ProgressListener | undefined;
  /** The answer's body does not matter (a pre-signed PUT): read a little of it, never fail on its size. */
  discardBody?: boolean;
}

export interface Reply {
  status: number;
  headers: ResponseHeaders;
  body: string;
}

/**
 * The HTTP layer of the API clients: deadlines as well as idle limits, replies read up to a cap, every
 * non-2xx a typed ApiError with the service's message cleaned, and the key kept at home.
 *
 * Redirects: a GET follows one within the origin it was sent to (a service may move a path; the key goes
 * nowhere new). Anything that leaves the origin fails as `redirect` naming the host. POST and PUT follow
 * none: following would mean sending the body again (307/308, a whole upload) or turning a create into a
 * GET (301-303).
 */
export class Http {
  readonly limits: HttpLimits;
  /** A GET call, a POST/PUT call, or either with a big body: each shape with its own limits. */
  private readonly transports: Record<'call' | 'upload', Transport>;
  private readonly hasKey: boolean;
  /** Every key the service's text is scrubbed of: this client's own, and any other Dubdesk knows. */
  private readonly keys: Secrets;

  constructor(opts: HttpOptions = {}) {
    this.limits = withLimits(DEFAULT_LIMITS, opts.limits);
    this.hasKey = opts.auth !== undefined;
    const own = opts.auth ? [opts.auth.key] : [];
    this.keys = () => [...own, ...(opts.secrets?.() ?? [])];
    const headers = { 'user-agent': 'Dubdesk', ...(opts.auth ? { [opts.auth.header]: opts.auth.key } : {}) };
    this.transports = {
      call: new Transport(timeoutsFor('call', this.limits), headers),
      upload: new Transport(timeoutsFor('upload', this.limits), headers, opts.reads, opts.uploadCap),
    };
  }

  /** Sends a request and parses a 2xx JSON body with `schema`. */
  async json<S extends z.ZodType>(schema: S, url: string, options: CallOptions = {}): Promise<z.infer<S>> {
    return (await this.jsonReply(schema, url, options)).data;
  }

  /** As `json`, with the answer's headers too (its `Date`, say). The body is scrubbed of keys either way. */
  async jsonReply<S extends z.ZodType>(
    schema: S,
    url: string,
    options: CallOptions = {},
  ): Promise<{ data: z.infer<S>; headers: Reply['headers'] }> {
    const res = await this.send(url, options);
    return { data: parseJson(schema, res, url, this.keys()), headers: res.headers };
  }

  async send(url: string, options: CallOptions = {}): Promise<Reply> {
    const target = httpUrl(url, 'the service address');
    const method = options.method ?? 'GET';
    if (options.searchParams)
      target.search = new URLSearchParams(
        Object.entries(options.searchParams).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    const json = options.json === undefined ? undefined : JSON.stringify(options.json);
    const res = await this.transports[options.upload ? 'upload' : 'call'].open(target, url, {
      method,
      headers:
        json === undefined ? options.headers : { 'content-type': 'application/json', ...options.headers },
      body: json ?? options.body,
      signal: options.signal,
      onUpload: options.onUpload,
      follow: method === 'GET' ? sameOrigin : undefined,
    });
    const status = res.status;
    if (status >= 300 && status < 400) {
      res.body.destroy();
      throw this.redirectError(method, status, res, target);
    }
    if (status < 200 || status >= 300) {
      const { body } = await readCapped(res.body, this.limits.maxErrorBodyBytes, url).catch(() => ({
        body: Buffer.alloc(0),
      }));
      throw errorFromResponse(status, utf8(body), url, this.keys());
    }
    if (options.discardBody) {
      // The status said it all; a body cut short afterwards changes nothing.
      await readCapped(res.body, this.limits.maxErrorBodyBytes, url).catch(() => undefined);
      return { status, headers: res.headers, body: '' };
    }
    const cap = this.limits.maxBodyBytes;
    const declared = contentLength(res.headers['content-length']);
    if (declared !== null && declared > cap) {
      res.body.destroy();
      throw tooBig(cap, url).after(status);
    }
    // From here on the service has said yes: a body that cannot be read still carries that 2xx.
    const { body, over } = await readCapped(res.body, cap, url).catch((e: unknown) => {
      throw e instanceof ApiError ? e.after(status) : e;
    });
    if (over) throw tooBig(cap, url).after(status);
    return { status, headers: res.headers, body: utf8(body) };
  }

  private redirectError(method: string, status: number, res: Answer, target: URL): ApiError {
    const to = redirectTarget(res.headers.location, res.url.href);
    const from = redact(res.url.href);
    if (!to) return new ApiError('protocol', `HTTP ${status} from ${from} without a usable Location`, status);
    if (to.origin !== target.origin) {
      const why = this.hasKey
        ? 'Dubdesk does not send your API key to another host'
        : method === 'PUT'
          ? 'Dubdesk does not send the file to another host'
          : 'Dubdesk does not follow the service to another host';
      return new ApiError('redirect', `the service redirected to ${to.host || to.protocol}; ${why}`, status);
    }
    return new ApiError(
      'redirect',
      method === 'GET'
        ? `the service redirected GET ${from} (HTTP ${status}) once more after ${MAX_REDIRECTS} redirects; Dubdesk stops there`
        : `the service redirected ${method} ${from} (HTTP ${status}); Dubdesk follows redirects of GET requests only`,
      status,
    );
  }
}

/** A GET follows a redirect only within the origin it was first sent to. */
const sameOrigin = (to: URL, first: URL) => to.origin === first.origin;

function tooBig(cap: number, url: string): ApiError {
  return new ApiError('too-big', `the service sent a reply larger than ${sizeText(cap)} from ${redact(url)}`);
}

function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * A 2xx body checked against its schema: anything else is the service breaking its promise. Nested past
 * reason, it is refused unread; every string in it is scrubbed of `keys` before anything reads it.
 */
export function parseJson<S extends z.ZodType>(
  schema: S,
  res: Reply,
  url: string,
  keys: readonly string[],
): z.infer<S> {
  if (nestsDeeper(res.body))
    throw new ApiError(
      'protocol',
      `unexpected answer from ${redact(url)}: nested deeper than ${MAX_JSON_DEPTH} levels`,
      res.status,
    );
  let data: unknown;
  try {
    data = scrubValue(JSON.parse(res.body), keys);
  } catch {
    throw new ApiError('protocol', `unexpected non-JSON answer from ${redact(url)}`, res.status);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).map(String).join('.').slice(0, 100) || 'body';
    throw new ApiError(
      'protocol',
      `unexpected answer from ${redact(url)}: ${path} ${issue?.message ?? ''}`.trim(),
      res.status,
    );
  }
  return parsed.data;
}

import { cleanServiceText } from '../../../shared/text';

/**
 * What the caller should do about a failure:
 * - `wait`: the network (or a transfer that is getting somewhere); retry with backoff, without limit.
 * - `bounded`: the service misbehaved; retry with backoff a bounded number of times, then fail the job.
 * - `never`: a definitive answer; retrying the same request gets the same answer.
 */
export type RetryPolicy = 'wait' | 'bounded' | 'never';

/**
 * Every kind of failure, how it is retried, and when it happens. The kind names are stable: the database
 * and the faces store and compare them.
 *
 * | kind          | retry   | when |
 * |---------------|---------|------|
 * | network       | wait    | cannot resolve, connect or handshake; connection reset or closed before an answer; no answer (status line) within the deadline, or the line idle that long before one |
 * | timeout       | bounded | an answer began but its body did not arrive within the deadline, or stalled longer than the idle limit |
 * | truncated     | bounded | a body ended or was cut before its Content-Length (or before the end a chunked body announces) |
 * | too-big       | bounded | an API reply larger than the cap (8 MiB) |
 * | redirect      | bounded | an API call redirected to another origin, a redirect of a non-GET API call or of an upload, or too many redirects |
 * | bad-link      | bounded | a link (output, upload, or a download's redirect) that is not an http(s) URL |
 * | protocol      | bounded | a 2xx body that is not the promised JSON, a 3xx without a usable Location, a 206/416 whose range does not match what was asked |
 * | server        | bounded | 5xx (but 502), and 408 |
 * | backend       | bounded | 502: the processing backend is unavailable (v2 create names the dub it made in `remoteId`) |
 * | rate-limited  | bounded | 429 |
 * | bad-request   | never   | 400 |
 * | auth          | never   | 401 (the runner halts the queue) |
 * | credits       | never   | 402 (the runner pauses submissions) |
 * | forbidden     | never   | 403 (an expired pre-signed link answers this: fetch fresh links) |
 * | not-found     | never   | 404 |
 * | conflict      | never   | 409 |
 * | not-uploaded  | never   | 412 |
 * | too-large     | never   | 413 |
 * | http          | never   | any other 4xx |
 * | canceled      | never   | the caller aborted |
 *
 * `timeout` and `truncated` become `wait` when `progressed` is set: a resumable download that grew its
 * file this time is getting somewhere (a line that drops every few minutes), and the next attempt resumes.
 */
export const RETRY: Readonly<Record<ApiErrorKind, RetryPolicy>> = {
  network: 'wait',
  source: 'wait',
  timeout: 'bounded',
  truncated: 'bounded',
  'too-big': 'bounded',
  redirect: 'bounded',
  'bad-link': 'bounded',
  protocol: 'bounded',
  server: 'bounded',
  backend: 'bounded',
  'rate-limited': 'bounded',
  'bad-request': 'never',
  auth: 'never',
  credits: 'never',
  forbidden: 'never',
  'not-found': 'never',
  conflict: 'never',
  'not-uploaded': 'never',
  'too-large': 'never',
  http: 'never',
  canceled: 'never',
};

export type ApiErrorKind =
  | 'bad-request'
  | 'auth'
  | 'credits'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'not-uploaded'
  | 'too-large'
  | 'backend'
  | 'server'
  | 'rate-limited'
  | 'http'
  | 'network'
  /** The local file being sent changed under the upload, or its disk stopped answering: not the line. */
  | 'source'
  | 'timeout'
  | 'truncated'
  | 'too-big'
  | 'redirect'
  | 'bad-link'
  | 'protocol'
  | 'canceled';

const BY_STATUS: Record<number, ApiErrorKind> = {
  400: 'bad-request',
  401: 'auth',
  402: 'credits',
  403: 'forbidden',
  404: 'not-found',
  408: 'server',
  409: 'conflict',
  412: 'not-uploaded',
  413: 'too-large',
  429: 'rate-limited',
  502: 'backend',
};

export function kindForStatus(status: number): ApiErrorKind {
  return BY_STATUS[status] ?? (status >= 500 ? 'server' : 'http');
}

export interface ApiErrorDetails {
  /** Bytes of the body received in this attempt (transfers only). */
  bytes?: number;
  /** A resumable transfer kept more than it had before this attempt. */
  progressed?: boolean;
}

const MESSAGE_MAX = 1000;

/** Every failure of a call to the service, typed by what the caller should do about it. */
export class ApiError extends Error {
  readonly bytes: number | null;
  readonly progressed: boolean;
  readonly retry: RetryPolicy;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
    /** v2 create's 502 names the dub it made but could not dispatch. */
    readonly remoteId: string | null = null,
    details: ApiErrorDetails = {},
  ) {
    // Messages quote the service and its links: cleaned here too, whoever built them.
    super(cleanServiceText(message, MESSAGE_MAX));
    this.name = 'ApiError';
    this.bytes = details.bytes ?? null;
    this.progressed = details.progressed ?? false;
    this.retry = this.progressed && (kind === 'timeout' || kind === 'truncated') ? 'wait' : RETRY[kind];
  }

  /**
   * The service answered 2xx, so it did what it was asked (a create made its dub), but the answer could not be
   * read: cut short, stalled, oversized, not JSON or not in shape. `status` holds that 2xx.
   */
  get answeredUnread(): boolean {
    return this.status !== null && this.status >= 200 && this.status < 300;
  }

  /** The same failure, heard after the answer's status line: `status`. */
  after(status: number): ApiError {
    return new ApiError(this.kind, this.message, status, this.remoteId, {
      ...(this.bytes !== null ? { bytes: this.bytes } : {}),
      progressed: this.progressed,
    });
  }

  /** Worth trying again later by itself (`retry` is not `never`); `retry` tells how often. */
  get transient(): boolean {
    return this.retry !== 'never';
  }
}

/** A link or endpoint without its query string or credentials: pre-signed queries are secrets of a kind. */
export function redact(url: string): string {
  const bare = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
  const q = bare.search(/[?#]/);
  return q === -1 ? bare : `${bare.slice(0, q)}?…`;
}

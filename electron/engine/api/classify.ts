import { ErrorBody } from '../../../shared/api/common';
import { cleanServiceText } from '../../../shared/text';
import { ApiError, kindForStatus, redact, type ApiErrorDetails } from './errors';
import { FileChangedError, FileStalledError } from './file-body';

/**
 * A limit the transport keeps itself (undici keeps the others): `request`, the whole call; `response`, the
 * status line after an upload; `read`, the body's end; `socket`, nothing moved on the line; `connect`, the
 * connection of a request that carries a file (the file thread's own).
 */
export class TransportTimeout extends Error {
  constructor(
    readonly phase: 'request' | 'response' | 'read' | 'socket' | 'connect',
    readonly ms: number,
  ) {
    super(`${phase} timeout`);
    this.name = 'TransportTimeout';
  }
}

/** undici's timeouts, by error code, as the phase they limit. */
const UNDICI_TIMEOUTS: Readonly<Record<string, 'connect' | 'response' | 'socket'>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'response',
  UND_ERR_BODY_TIMEOUT: 'socket',
};

/**
 * What says the answer was not HTTP a client can read: the parser's refusal, headers too big, a bad
 * Content-Length (undici tells it before the status line is handed over; after it, the body was cut short).
 */
function brokenHttp(e: unknown, code: string, answered: boolean): boolean {
  if (e instanceof Error && e.name === 'HTTPParserError') return true;
  return (
    code.startsWith('HPE_') ||
    code === 'UND_ERR_HEADERS_OVERFLOW' ||
    (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && !answered)
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return redact(url);
  }
}

function codeOf(e: unknown): string {
  const code = e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : '';
}

/**
 * A request that failed without a complete answer, as an ApiError. `answered` says whether the status line
 * had arrived: before it, the network is to blame (wait); after it, the service sent a broken answer.
 */
export function errorFromFailure(
  e: unknown,
  url: string,
  answered: boolean,
  details: ApiErrorDetails = {},
): ApiError {
  if (e instanceof ApiError) return e;
  // The file, not the line: said as it is, and waited for (a file still being written, a share coming back).
  if (e instanceof FileChangedError || e instanceof FileStalledError)
    return new ApiError('source', e.message);
  const code = codeOf(e);
  // The caller's AbortController (a DOMException), or undici's own name for an aborted request.
  if ((e instanceof Error && e.name === 'AbortError') || code === 'UND_ERR_ABORTED')
    return new ApiError('canceled', 'canceled');
  const where = redact(url);
  const timeout = e instanceof TransportTimeout ? e.phase : UNDICI_TIMEOUTS[code];
  if (timeout === 'connect')
    return new ApiError('network', `cannot reach ${hostOf(url)} (timed out: connect)`);
  if (timeout !== undefined) {
    if (!answered) return new ApiError('network', `no answer from ${where} in time (${timeout} timeout)`);
    return new ApiError(
      'timeout',
      timeout === 'socket'
        ? `the answer from ${where} stalled part way`
        : `the answer from ${where} did not finish in time (${timeout} deadline)`,
      null,
      null,
      details,
    );
  }
  const what = e instanceof Error ? e.message : String(e);
  // Something answered, but not in HTTP.
  if (brokenHttp(e, code, answered))
    return new ApiError(
      'protocol',
      `${where} answered with broken HTTP (${code || what})`,
      null,
      null,
      details,
    );
  // undici's codes say little (UND_ERR_SOCKET); its message says what happened ("other side closed").
  const why = code && !code.startsWith('UND_ERR') ? code : what;
  if (answered) {
    const received = details.bytes !== undefined ? ` after ${details.bytes} bytes` : '';
    return new ApiError(
      'truncated',
      `the answer from ${where} was cut short${received} (${why})`,
      null,
      null,
      details,
    );
  }
  return new ApiError('network', `cannot reach ${where} (${why})`);
}

/** A non-2xx answer as an ApiError, with the service's own `{ error }` message when it sent one, cleaned. */
export function errorFromResponse(status: number, text: string, url: string): ApiError {
  let message = '';
  let remoteId: string | null = null;
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) {
      message = cleanServiceText(parsed.data.error);
      const id = parsed.data.id === undefined ? '' : cleanServiceText(parsed.data.id, 200);
      remoteId = id || null;
    }
  } catch {
    /* not JSON: keep the status line */
  }
  return new ApiError(
    kindForStatus(status),
    message ? `${message} (HTTP ${status} from ${redact(url)})` : `HTTP ${status} from ${redact(url)}`,
    status,
    remoteId,
  );
}

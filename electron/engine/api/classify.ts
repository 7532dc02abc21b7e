import { ErrorBody } from '../../../shared/api/common';
import { cleanServiceText } from '../../../shared/text';
import { ApiError, kindForStatus, redact, type ApiErrorDetails } from './errors';
import { FileChangedError, FileStalledError } from './file-body';
import { gotIfLoaded } from './got-module';
import { nestsDeeper } from './json-depth';
import { scrubValue } from './scrub';

/**
 * A limit the transport keeps itself, or got's timeout of that phase: `request`, the whole call; `response`,
 * the status line once the request is sent; `read`, the body's end; `socket`, nothing moved on the line (or,
 * while a file goes out, none of it left); `connect`, DNS, TCP and TLS.
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

/** got's timeout events, as the phase they limit. */
const GOT_TIMEOUTS: Readonly<Record<string, TransportTimeout['phase']>> = {
  lookup: 'connect',
  connect: 'connect',
  secureConnect: 'connect',
  socket: 'socket',
  send: 'socket',
  response: 'response',
  read: 'read',
  request: 'request',
};

/** The phase of a timeout, whether this layer's own or got's. */
function timeoutPhase(e: unknown): TransportTimeout['phase'] | undefined {
  if (e instanceof TransportTimeout) return e.phase;
  const got = gotIfLoaded();
  if (got && e instanceof got.TimeoutError) return GOT_TIMEOUTS[e.event] ?? 'request';
  return undefined;
}

/** What says the answer was not HTTP a client can read: the parser's refusal (headers too big, bad framing). */
function brokenHttp(e: unknown, code: string): boolean {
  if (e instanceof Error && e.name === 'HTTPParserError') return true;
  return code.startsWith('HPE_');
}

/** The failure under got's wrapper (an upload's read error, the socket's reset), when there is one. */
function underlying(e: unknown): unknown {
  const got = gotIfLoaded();
  if (got && e instanceof got.RequestError && !(e instanceof got.TimeoutError) && e.cause instanceof Error)
    return e.cause;
  return e;
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

/** TLS verdicts on a certificate nobody in the trust store vouches for. */
const UNTRUSTED =
  /^(?:UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED)$/;

/**
 * What a company network does to a request, said plainly: a certificate the system does not trust (a
 * TLS-inspecting proxy whose root is not installed), or a proxy that refuses the tunnel (hpagent's error).
 */
function trustFailure(code: string, what: string, host: string): string | null {
  if (UNTRUSTED.test(code))
    return (
      `cannot reach ${host}: its certificate is not trusted here (${code}). Behind a company proxy that ` +
      `inspects TLS, install the proxy's root certificate in the system's store, or name its file in NODE_EXTRA_CA_CERTS`
    );
  const refused = what.match(/^Bad response: (\d{3})$/);
  if (refused)
    return `cannot reach ${host}: the proxy refused the connection (HTTP ${refused[1]}${refused[1] === '407' ? ': it wants a login, which Dubdesk takes in the proxy URL, http://user:password@proxy:port' : ''})`;
  return null;
}

/**
 * A request that failed without a complete answer, as an ApiError. `answered` says whether the status line
 * had arrived: before it, the network is to blame (wait); after it, the service sent a broken answer.
 */
export function errorFromFailure(
  failure: unknown,
  url: string,
  answered: boolean,
  details: ApiErrorDetails = {},
): ApiError {
  const e = underlying(failure);
  if (e instanceof ApiError) return e;
  // The file, not the line: said as it is, and waited for (a file still being written, a share coming back).
  if (e instanceof FileChangedError || e instanceof FileStalledError)
    return new ApiError('source', e.message);
  const where = redact(url);
  const got = gotIfLoaded();
  if (got && e instanceof got.MaxRedirectsError)
    return new ApiError('redirect', `too many redirects from ${where}`);
  const code = codeOf(e);
  // The caller's AbortController (a DOMException), or got's own name for an aborted request.
  if ((e instanceof Error && e.name === 'AbortError') || code === 'ERR_ABORTED')
    return new ApiError('canceled', 'canceled');
  const timeout = timeoutPhase(e);
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
  if (brokenHttp(e, code))
    return new ApiError(
      'protocol',
      `${where} answered with broken HTTP (${code || what})`,
      null,
      null,
      details,
    );
  const untrusted = trustFailure(code, what, hostOf(url));
  if (untrusted) return new ApiError('network', untrusted);
  // got's own codes say little (ERR_GOT_REQUEST_ERROR); its message says what happened.
  const why = code && !code.startsWith('ERR_') ? code : what;
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

/**
 * A non-2xx answer as an ApiError, with the service's own `{ error }` message when it sent one, scrubbed of
 * `keys` and cleaned.
 */
export function errorFromResponse(
  status: number,
  text: string,
  url: string,
  keys: readonly string[] = [],
): ApiError {
  let message = '';
  let remoteId: string | null = null;
  try {
    if (nestsDeeper(text)) throw new Error('nested too deep');
    const parsed = ErrorBody.safeParse(scrubValue(JSON.parse(text), keys));
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

import { MaxRedirectsError, RequestError, TimeoutError } from 'got';
import { ErrorBody } from '../../../shared/api/common';
import { cleanServiceText } from '../../../shared/text';
import { ApiError, kindForStatus, redact, type ApiErrorDetails } from './errors';

const CONNECT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return redact(url);
  }
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
  if (e instanceof RequestError && e.code === 'ERR_ABORTED') return new ApiError('canceled', 'canceled');
  if (e instanceof Error && e.name === 'AbortError') return new ApiError('canceled', 'canceled');
  const where = redact(url);
  if (e instanceof TimeoutError) {
    if (CONNECT_EVENTS.has(e.event))
      return new ApiError('network', `cannot reach ${hostOf(url)} (timed out: ${e.event})`);
    if (!answered) return new ApiError('network', `no answer from ${where} in time (${e.event} timeout)`);
    return new ApiError(
      'timeout',
      e.event === 'socket'
        ? `the answer from ${where} stalled part way`
        : `the answer from ${where} did not finish in time (${e.event} deadline)`,
      null,
      null,
      details,
    );
  }
  if (e instanceof MaxRedirectsError) return new ApiError('redirect', `too many redirects from ${where}`);
  const code = e instanceof RequestError ? e.code : '';
  const what = e instanceof Error ? e.message : String(e);
  // Node's HTTP parser refused what came back: something answered, but not in HTTP.
  if (code.startsWith('HPE_'))
    return new ApiError('protocol', `${where} answered with broken HTTP (${code})`, null, null, details);
  if (answered) {
    const received = details.bytes !== undefined ? ` after ${details.bytes} bytes` : '';
    return new ApiError(
      'truncated',
      `the answer from ${where} was cut short${received} (${code || what})`,
      null,
      null,
      details,
    );
  }
  return new ApiError('network', `cannot reach ${where} (${code || what})`);
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

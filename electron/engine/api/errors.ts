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
  | 'http'
  | 'network'
  | 'protocol'
  | 'canceled';

const BY_STATUS: Record<number, ApiErrorKind> = {
  400: 'bad-request',
  401: 'auth',
  402: 'credits',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  412: 'not-uploaded',
  413: 'too-large',
  502: 'backend',
};

export function kindForStatus(status: number): ApiErrorKind {
  return BY_STATUS[status] ?? (status >= 500 ? 'server' : 'http');
}

/** Every failure of a call to the service, typed by what the caller should do about it. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
    /** v2 create's 502 names the dub it made but could not dispatch. */
    readonly remoteId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Worth trying again later by itself: the network, timeouts, 5xx. 4xx are not retried blindly. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'server' || this.kind === 'backend';
  }
}

/** A link or endpoint without its query string: pre-signed queries are secrets of a kind. */
export function redact(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : `${url.slice(0, q)}?…`;
}

/**
 * How the web bridge's requests are made, in one place for the bridge and for the page's first calls
 * (first-calls.ts), which must send exactly what the bridge would. In a browser there is no token: the
 * session cookie goes with every request of the page's own origin (web-session.ts); a program (the
 * tests, a script) sends the session token instead.
 */

export const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** A contract call: `POST /api/<method>` with its input as JSON. */
export const callInit = (token: string | undefined, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { ...bearer(token), 'content-type': 'application/json' },
  body: JSON.stringify(body ?? null),
  cache: 'no-store',
});

/** The event stream. */
export const eventsInit = (token: string | undefined, signal?: AbortSignal): RequestInit => ({
  headers: { ...bearer(token), accept: 'text/event-stream' },
  signal,
  cache: 'no-store',
});

/**
 * Whether an answer is `serve` refusing the session itself (it stopped or restarted, so this browser's
 * session is gone), told apart from a contract error `auth` about the service's API key by its
 * `WWW-Authenticate` challenge.
 */
export const sessionRefused = (status: number, challenge: string | null): boolean =>
  status === 401 && (challenge ?? '').includes('realm="dubdesk"');

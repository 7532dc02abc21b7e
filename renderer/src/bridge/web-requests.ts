/**
 * How the web bridge's requests are made, in one place for the bridge and for the page's first calls
 * (first-calls.ts), which must send exactly what the bridge would.
 */

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A contract call: `POST /api/<method>` with its input as JSON. */
export const callInit = (token: string, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { ...bearer(token), 'content-type': 'application/json' },
  body: JSON.stringify(body ?? null),
  cache: 'no-store',
});

/** The event stream. */
export const eventsInit = (token: string, signal?: AbortSignal): RequestInit => ({
  headers: { ...bearer(token), accept: 'text/event-stream' },
  signal,
  cache: 'no-store',
});

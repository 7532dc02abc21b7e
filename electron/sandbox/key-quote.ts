import type { IncomingMessage } from 'node:http';

/** The API key a request carried, whichever header it used (`apikey`, `ApiKey`, `Authorization: Bearer`). */
export function callerKey(req: IncomingMessage): string {
  const header = req.headers['apikey'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ?? /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
}

/**
 * A message that quotes `key` back, as a careless service does (the `rateQuoteKey` fault): as it is, and,
 * where the text carries more (a failed dub's message), JSON-escaped and URL-encoded too.
 */
export function quotingKey(message: string, key: string, every = false): string {
  const raw = `${message} (quota lookup failed for key=${key})`;
  if (!every) return raw;
  return `${raw}; request was ${JSON.stringify({ apikey: key })}; see /keys?k=${encodeURIComponent(key)}`;
}

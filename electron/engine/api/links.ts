import { ApiError, redact } from './errors';

/**
 * A link the service handed over (output, upload address) or an endpoint, as a URL; `bad-link` unless it is
 * http(s). The transport would refuse other schemes too, but as an error that reads like the network's.
 */
export function httpUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('bad-link', `the service gave ${what} that is not a URL: ${redact(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ApiError(
      'bad-link',
      `the service gave ${what} that is not an http(s) link (${url.protocol}); Dubdesk does not follow it`,
    );
  return url;
}

/** Where a redirect points, resolved against the URL that answered it; null when it cannot be parsed. */
export function redirectTarget(location: string | string[] | undefined, from: string): URL | null {
  const raw = Array.isArray(location) ? location[0] : location;
  if (!raw) return null;
  try {
    // Location is raw header bytes, read as latin1: taken back to bytes, they are read as UTF-8.
    return new URL(Buffer.from(raw, 'binary').toString(), from);
  } catch {
    return null;
  }
}

export function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

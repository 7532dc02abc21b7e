import { parseServiceAddress } from '../../../shared/contract/service-address';
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

/**
 * The URL of an endpoint under a service address, built by the parser that sends it, relative to the parsed
 * root: an address that reads as one host to one parser and another to the next is refused here, so the
 * key goes only to the origin it was bound to, whoever built the client.
 */
export function serviceEndpoint(address: string, path: string): string {
  const parsed = parseServiceAddress(address);
  if ('problem' in parsed)
    throw new ApiError('bad-link', `the service address ${redact(address)} is refused: ${parsed.problem}`);
  const root = new URL(parsed.url.href);
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  const url = new URL(path, root);
  if (url.origin !== root.origin) throw new ApiError('bad-link', `${redact(url.href)} leaves the service`);
  return url.href;
}

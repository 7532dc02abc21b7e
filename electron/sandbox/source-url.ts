import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkAddress, isLocalName } from './address-policy';
import { StoredFile } from './stored-file';
import { HttpError } from './http-error';

export interface FetchedSource {
  bytes: number;
  contentType: string | null;
}

/** How host names become addresses; tests replace it to play a rebinding DNS server. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const systemResolver: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface SourcePolicy {
  resolve: ResolveHost;
  /** Loopback and private addresses too (tests of the URL mode against a local server). */
  allowPrivate: boolean;
  /** Whether an address counts as public; the real rule unless a test says otherwise. */
  check?: typeof checkAddress;
}

const MAX_REDIRECTS = 5;
const IDLE_TIMEOUT_MS = 30_000;

/**
 * Resolves the host once and decides on those very addresses: every one must be public. The answer is the
 * single address the connection will use, so a DNS answer that changes between check and connect
 * (rebinding) changes nothing.
 */
async function pinnedAddress(url: URL, policy: SourcePolicy): Promise<{ address: string; family: 4 | 6 }> {
  const check = policy.check ?? checkAddress;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && isLocalName(host)) {
    throw new HttpError(400, `source_url is blocked: ${url.hostname} names this machine`);
  }
  const addresses = isIP(host) ? [host] : await policy.resolve(host).catch(() => []);
  const first = addresses[0];
  if (first === undefined)
    throw new HttpError(400, `source_url is unreachable: cannot resolve ${url.hostname}`);
  if (policy.allowPrivate) return { address: first, family: isIP(first) === 6 ? 6 : 4 };
  let pinned: { address: string; family: 4 | 6 } | null = null;
  for (const a of addresses) {
    const verdict = check(a);
    if (!verdict.ok) throw new HttpError(400, `source_url is blocked: ${url.hostname}: ${verdict.why}`);
    pinned ??= { address: verdict.address, family: verdict.family };
  }
  if (!pinned) throw new HttpError(400, `source_url is unreachable: cannot resolve ${url.hostname}`);
  return pinned;
}

/** A lookup that answers the checked address whatever name it is asked for. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function get(url: URL, pinned: { address: string; family: 4 | 6 }): Promise<IncomingMessage> {
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const options: RequestOptions & { servername?: string } = {
    method: 'GET',
    lookup: pinnedLookup(pinned.address, pinned.family),
    headers: { 'user-agent': 'dubdesk-sandbox', accept: '*/*' },
  };
  // The Host header and the TLS server name stay the URL's host; only the address is fixed.
  if (https && !isIP(host)) options.servername = host;
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
      res.setTimeout(IDLE_TIMEOUT_MS, () => res.destroy(new Error('the download stalled')));
      resolve(res);
    });
    // An idle limit, not a total one: a large file on a slow line is fine while bytes keep coming.
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end();
  });
}

function save(res: IncomingMessage, dest: string, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = new StoredFile(dest);
    let bytes = 0;
    let settled = false;
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      res.destroy();
      out.destroy();
      reject(err);
    };
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) fail(new HttpError(413, `source_url exceeds the ${maxBytes}-byte upload limit`));
    });
    res.on('error', () => fail(new HttpError(400, 'source_url is unreachable: the download broke off')));
    res.on('aborted', () => fail(new HttpError(400, 'source_url is unreachable: the download broke off')));
    out.on('error', () => fail(new HttpError(500, 'Could not store the download')));
    out.on('finish', () => {
      if (settled) return;
      settled = true;
      resolve(bytes);
    });
    res.pipe(out);
  });
}

/** Downloads a caller's `source_url` to `dest`, following at most five redirects, each one checked. */
export async function fetchSourceUrl(
  raw: string,
  dest: string,
  maxBytes: number,
  policy: SourcePolicy,
): Promise<FetchedSource> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpError(400, 'source_url is not a valid URL');
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HttpError(400, 'source_url must be an http or https URL');
    }
    if (url.username || url.password) throw new HttpError(400, 'source_url must not carry credentials');
    const pinned = await pinnedAddress(url, policy);
    let res: IncomingMessage;
    try {
      res = await get(url, pinned);
    } catch (e) {
      throw new HttpError(400, `source_url is unreachable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.resume();
      try {
        url = new URL(location, url);
      } catch {
        throw new HttpError(400, 'source_url redirects to an invalid address');
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new HttpError(400, `source_url is unreachable: it answered ${status}`);
    }
    const bytes = await save(res, dest, maxBytes);
    return { bytes, contentType: res.headers['content-type']?.split(';')[0]?.trim() ?? null };
  }
  throw new HttpError(400, 'source_url redirects too many times');
}

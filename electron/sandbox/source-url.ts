import { lookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import ipaddr from 'ipaddr.js';
import { HttpError } from './http';

export interface FetchedSource {
  bytes: number;
  contentType: string | null;
}

/** Only addresses on the public internet may be fetched, unless the sandbox was told otherwise. */
async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [host]
    : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0)
    throw new HttpError(400, `source_url is unreachable: cannot resolve ${hostname}`);
  for (const a of addresses) {
    const parsed = ipaddr.process(a);
    if (parsed.range() !== 'unicast') {
      throw new HttpError(
        400,
        `source_url is blocked: ${hostname} is a ${parsed.range()} address, not a public one`,
      );
    }
  }
}

/** Downloads a caller's `source_url` to `dest`, following at most five redirects, each one checked. */
export async function fetchSourceUrl(
  raw: string,
  dest: string,
  maxBytes: number,
  allowPrivate: boolean,
): Promise<FetchedSource> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpError(400, 'source_url is not a valid URL');
  }
  for (let hop = 0; hop <= 5; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HttpError(400, 'source_url must be an http or https URL');
    }
    if (!allowPrivate) await assertPublicHost(url.hostname);
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      throw new HttpError(400, `source_url is unreachable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    if (!res.ok || !res.body)
      throw new HttpError(400, `source_url is unreachable: it answered ${res.status}`);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        if (bytes > maxBytes) cb(new HttpError(413, `source_url exceeds the ${maxBytes}-byte upload limit`));
        else cb(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), counter, createWriteStream(dest));
    return { bytes, contentType: res.headers.get('content-type')?.split(';')[0]?.trim() ?? null };
  }
  throw new HttpError(400, 'source_url redirects too many times');
}

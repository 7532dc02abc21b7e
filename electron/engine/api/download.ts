import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'got';
import { ApiError, redact } from './errors';
import { Http, errorFromResponse, toNetworkError, type ProgressListener } from './http';

const links = new Http({ timeoutMs: 60_000 });

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

async function readSmall(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    if (n < 65536) chunks.push(b);
    n += b.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface Downloaded {
  bytes: number;
  contentType: string | null;
}

/**
 * Downloads a signed link into `part`, resuming with a Range request from whatever `part` already holds.
 * Resolves only when the file has exactly the length the server promised; a cut transfer rejects as a
 * network error (resume later), an expired link as 'forbidden' (fetch fresh links, then resume).
 */
export async function downloadToPart(
  url: string,
  part: string,
  signal?: AbortSignal,
  onProgress?: ProgressListener,
): Promise<Downloaded> {
  const have = await sizeOf(part);
  const stream = links.got.stream(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, signal });
  let response: Response;
  try {
    response = await new Promise<Response>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
  } catch (e) {
    stream.destroy();
    throw toNetworkError(e, url);
  }
  const status = response.statusCode;
  const contentType = response.headers['content-type']?.split(';')[0]?.trim() ?? null;
  const totalFromRange = Number(/\/(\d+)$/.exec(String(response.headers['content-range'] ?? ''))?.[1] ?? NaN);

  if (status === 416) {
    stream.destroy();
    if (totalFromRange === have) return { bytes: have, contentType };
    await rm(part, { force: true });
    throw new ApiError('network', `partial download of ${redact(url)} no longer matches; starting over`);
  }
  if (status !== 200 && status !== 206) {
    const text = await readSmall(stream).catch(() => '');
    throw errorFromResponse(status, text, url);
  }
  const append = status === 206;
  const expected = append ? totalFromRange : Number(response.headers['content-length'] ?? NaN);
  let written = append ? have : 0;
  const meter = new Transform({
    transform(chunk: Buffer, _e, cb) {
      written += chunk.length;
      onProgress?.(written, Number.isFinite(expected) ? expected : null);
      cb(null, chunk);
    },
  });
  try {
    await pipeline(stream, meter, createWriteStream(part, { flags: append ? 'a' : 'w' }));
  } catch (e) {
    throw toNetworkError(e, url);
  }
  const bytes = await sizeOf(part);
  if (Number.isFinite(expected) && bytes !== expected) {
    throw new ApiError(
      'network',
      `download of ${redact(url)} was cut short (${bytes} of ${expected} bytes); it will resume`,
    );
  }
  return { bytes, contentType };
}

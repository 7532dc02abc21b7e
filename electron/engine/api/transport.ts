import got, { type Delays, type Got, type PlainResponse, type Request } from 'got';
import { errorFromFailure } from './classify';
import type { HttpLimits } from './limits';

export type ProgressListener = (transferred: number, total: number | null) => void;

/**
 * - `call`: an API call with a small body: every phase limited, and the whole of it too.
 * - `upload`: a big body goes out (v2 create with a file, pre-signed PUT): idle limits while it is sent,
 *   then the answer gets the same deadlines as a call's.
 * - `download`: the status line gets a deadline; the body, idle limits only.
 */
export type Shape = 'call' | 'upload' | 'download';

export function timeoutsFor(shape: Shape, l: HttpLimits): Delays {
  const base: Delays = {
    lookup: l.connectMs,
    connect: l.connectMs,
    secureConnect: l.connectMs,
    socket: l.idleMs,
    response: l.answerMs,
  };
  if (shape === 'download') return base;
  if (shape === 'upload') return { ...base, read: l.answerMs };
  return { ...base, read: l.answerMs, request: l.callMs };
}

/** got without its own retries (the queue retries, persisted, with backoff) and without throwing on status. */
export function baseGot(headers: Record<string, string> = {}): Got {
  return got.extend({
    retry: { limit: 0 },
    throwHttpErrors: false,
    headers: { 'user-agent': 'Dubdesk', ...headers },
  });
}

/**
 * Waits for the status line of a got stream. A failure before it is the network's (or a stalled service's);
 * the stream keeps a no-op error listener so a late error cannot crash the process: readers see it anyway.
 */
export function awaitResponse(stream: Request, url: string): Promise<PlainResponse> {
  stream.on('error', () => {});
  return new Promise((resolve, reject) => {
    const onResponse = (r: PlainResponse) => {
      stream.off('error', onError);
      resolve(r);
    };
    const onError = (e: unknown) => {
      stream.off('response', onResponse);
      stream.destroy();
      reject(errorFromFailure(e, url, false));
    };
    stream.once('response', onResponse);
    stream.once('error', onError);
  });
}

/**
 * Reads a body into memory, at most `cap` bytes: `over` tells that there was more (the rest is not read;
 * the connection is closed). A failure part way is classified as a broken answer.
 */
export async function readCapped(
  stream: Request,
  cap: number,
  url: string,
): Promise<{ body: Buffer; over: boolean }> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of stream) {
      const b = chunk as Buffer;
      if (n + b.length > cap) {
        chunks.push(b.subarray(0, cap - n));
        return { body: Buffer.concat(chunks), over: true };
      }
      chunks.push(b);
      n += b.length;
    }
  } catch (e) {
    throw errorFromFailure(e, url, true, { bytes: n });
  }
  return { body: Buffer.concat(chunks), over: false };
}

/** A Content-Length header as a number, or null when absent or not a plain decimal. */
export function contentLength(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || !/^\s*\d{1,16}\s*$/.test(v)) return null;
  return Number(v);
}

export function utf8(body: Buffer): string {
  return new TextDecoder('utf-8').decode(body);
}

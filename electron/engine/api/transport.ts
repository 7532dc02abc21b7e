import { channel } from 'node:diagnostics_channel';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Delays, Got, PlainResponse, Progress, Request } from 'got';
import { OutgoingBody, type SourceReads } from './body-stream';
import { errorFromFailure, TransportTimeout } from './classify';
import { ApiError, redact } from './errors';
import { loadGot } from './got-module';
import type { FileBody } from './file-body';
import type { HttpLimits } from './limits';
import { redirectTarget } from './links';
import { agentsFor } from './network';
import type { RateCap } from './rate-cap';

export type ProgressListener = (transferred: number, total: number | null) => void;

/** Response headers as Node gives them: lower-case names, a list for the few that may come more than once. */
export type ResponseHeaders = IncomingHttpHeaders;

/**
 * - `call`: an API call with a small body: every phase limited, and the whole of it too.
 * - `upload`: a big body goes out (v2 create with a file, pre-signed PUT): an idle limit on the bytes going
 *   out while it is sent, then the answer gets the same deadlines as a call's.
 * - `download`: the status line gets a deadline; the body, idle limits only.
 */
export type Shape = 'call' | 'upload' | 'download';

export interface Timeouts {
  /** DNS lookup, TCP connect and TLS handshake, each. */
  connectMs: number;
  /** Nothing moved on the socket for this long; while a big body goes out, none of its bytes did. */
  idleMs: number;
  /** From the whole request sent to the status line. */
  statusMs: number;
  /** From the status line to the body's end. */
  readMs: number | null;
  /** The whole request, connection to last byte. */
  wholeMs: number | null;
}

export function timeoutsFor(shape: Shape, l: HttpLimits): Timeouts {
  const base: Timeouts = {
    connectMs: l.connectMs,
    idleMs: l.idleMs,
    statusMs: Math.min(l.answerMs, l.idleMs),
    readMs: null,
    wholeMs: null,
  };
  if (shape === 'download') return base;
  if (shape === 'upload') return { ...base, readMs: l.answerMs };
  return { ...base, readMs: l.answerMs, wholeMs: l.callMs };
}

/** got's per-phase timeouts for these limits. `response` starts once the whole body is sent. */
function delaysOf(t: Timeouts): Delays {
  return {
    lookup: t.connectMs,
    connect: t.connectMs,
    secureConnect: t.connectMs,
    socket: t.idleMs,
    response: t.statusMs,
    ...(t.readMs !== null ? { read: t.readMs } : {}),
    ...(t.wholeMs !== null ? { request: t.wholeMs } : {}),
  };
}

/** A chain longer than this is a loop. */
export const MAX_REDIRECTS = 10;
/** Interim (1xx) replies taken before the answer; a server that sends more is stalling. */
export const MAX_INTERIM_REPLIES = 16;

/*
 * Calls share one keep-alive pool per protocol and proxy (network.ts). HTTP/1.1 only, as the error mapping
 * assumes. A file goes out on a connection of its own, never reused: a server that answers a refusal part way
 * (403, 413) leaves the line with the rest of the file unsent.
 */

/**
 * `dubdesk:file-request` tells when a request carrying a file starts (`{ id, phase: 'start' }`) and when its
 * status line arrives (`{ id, phase: 'answer' }`): the benchmark times uploads by it, as curl times its one.
 */
export const fileRequestChannel = channel('dubdesk:file-request');
let nextFileRequest = 1;

export interface Outgoing {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string> | undefined;
  /** A file is read as it goes out; a request carrying one is never redirected. */
  body?: string | Buffer | FileBody | undefined;
  signal?: AbortSignal | undefined;
  onUpload?: ProgressListener | undefined;
  /** Whether to follow a redirect to `to` (`first`: the URL first asked); none is followed without it. */
  follow?: ((to: URL, first: URL) => boolean) | undefined;
}

export interface Answer {
  status: number;
  headers: ResponseHeaders;
  /** Read it to its end or destroy it: either releases the connection. */
  body: Readable;
  /** The URL that gave this answer: the last of the redirects followed. */
  url: URL;
}

/**
 * The engine's one HTTP layer, over got: no retries (the queue retries, persisted, with backoff), no
 * throwing on status, no decompression (bytes exactly as sent), and the limits of one request shape as got's
 * per-phase timeouts. While a file goes out, its own idle limit counts the bytes that leave (an answer
 * trickled the other way does not keep a stalled upload alive) and names a file whose read is stuck.
 */
export class Transport {
  /** Headers that carry the key: dropped from a redirect to another origin, should one be followed. */
  private readonly secret: string[];

  constructor(
    private readonly timeouts: Timeouts,
    private readonly headers: Readonly<Record<string, string>>,
    private readonly reads?: SourceReads,
    /** The cap a file going out keeps to (uploads); null: none. */
    private readonly cap: RateCap | null = null,
  ) {
    this.secret = Object.keys(headers)
      .map((h) => h.toLowerCase())
      .filter((h) => h !== 'user-agent');
  }

  /**
   * Sends a request and waits for its status line, following redirects as `req.follow` allows. A failure
   * before the status line is the network's (or a stalled service's, or the file's), as an ApiError naming
   * `url`.
   */
  async open(target: URL, url: string, req: Outgoing): Promise<Answer> {
    const { default: got } = await loadGot();
    return this.send(got, target, url, req);
  }

  private send(got: Got, target: URL, url: string, req: Outgoing): Promise<Answer> {
    const t = this.timeouts;
    // One signal for the caller's cancel and this layer's own limits, each aborting with its reason.
    const own = new AbortController();
    const cancel = () => own.abort(req.signal?.reason);
    if (req.signal?.aborted) cancel();
    else req.signal?.addEventListener('abort', cancel, { once: true });
    const unlisten = () => req.signal?.removeEventListener('abort', cancel);

    let file: OutgoingBody | null = null;
    try {
      file = isFile(req.body) ? new OutgoingBody(req.body, this.reads, this.cap) : null;
    } catch (e) {
      unlisten();
      return Promise.reject(errorFromFailure(e, url, false));
    }
    const headers = {
      ...this.headers,
      ...(file ? { connection: 'keep-alive' } : {}),
      ...req.headers,
    };
    const follow = req.follow;
    const hops = new Set<PlainResponse>();
    const secret = this.secret;
    const body = file ? file.stream : (req.body as string | Buffer | undefined);
    const stream: Request = got.stream(target, {
      method: req.method,
      headers,
      body: body ?? (req.method === 'GET' ? undefined : Buffer.alloc(0)),
      signal: own.signal,
      throwHttpErrors: false,
      decompress: false,
      retry: { limit: 0 },
      http2: false,
      agent: agentsFor(target, !file),
      timeout: delaysOf(t),
      // The chain is bounded here, not by got's own limit: past it got waits for the last redirect's body to
      // end, and a service that never ends it held the call for ever. Not followed, the last redirect is the
      // answer (a refusal like any unexpected status).
      maxRedirects: MAX_REDIRECTS + 1,
      followRedirect: follow
        ? (res: PlainResponse) => {
            const to = redirectTarget(res.headers.location, res.url);
            // got may ask more than once of one answer: hops are counted by answer.
            hops.add(res);
            return to !== null && hops.size <= MAX_REDIRECTS && follow(to, target);
          }
        : false,
      hooks: {
        beforeRedirect: [
          (options) => {
            const to = options.url instanceof URL ? options.url : null;
            if (to?.origin === target.origin) return;
            options.headers = Object.fromEntries(
              Object.entries(options.headers).filter(([h]) => !secret.includes(h)),
            );
          },
        ],
      },
    });
    const id = file && fileRequestChannel.hasSubscribers ? nextFileRequest++ : 0;
    if (id) fileRequestChannel.publish({ id, phase: 'start' });
    const sending = file ? new SendWatch(t.idleMs, file, (why) => own.abort(why)) : null;
    let interim = 0;

    return new Promise<Answer>((resolve, reject) => {
      const fail = (e: unknown) => {
        sending?.stop();
        unlisten();
        stream.destroy();
        const why = own.signal.aborted ? (own.signal.reason as unknown) : e;
        const error = errorFromFailure(why, url, false);
        if (!file || error.kind === 'source') return reject(error);
        // The file is closed by the time the failure is heard. A read of it still hanging then (the line
        // dropped, or timed out first, while the disk did not answer) is the failure to tell.
        void file
          .closedWithin(t.idleMs)
          .then((stall) => reject(stall ? errorFromFailure(stall, url, false) : error));
      };
      stream.once('error', fail);
      stream.on('uploadProgress', (p: Progress) => {
        sending?.moved(p.transferred);
        if (p.transferred > 0) req.onUpload?.(p.transferred, file ? file.body.length : (p.total ?? null));
      });
      stream.on('information', () => {
        if (++interim > MAX_INTERIM_REPLIES)
          own.abort(
            new ApiError(
              'protocol',
              `${redact(url)} sent more than ${MAX_INTERIM_REPLIES} interim (1xx) replies`,
            ),
          );
      });
      stream.once('response', (res: PlainResponse) => {
        stream.off('error', fail);
        sending?.stop();
        // A late error must not crash the process: readers see it anyway.
        stream.on('error', () => {});
        stream.once('close', unlisten);
        if (id) fileRequestChannel.publish({ id, phase: 'answer' });
        const status = res.statusCode;
        if (file && !file.handed) {
          // Answered: no more of the file goes out, and the line ends with the answer (the request never will).
          file.stream.destroy();
          stream.once('end', () => stream.destroy());
          // A refusal may come before the whole file went out; an acceptance of a file not all sent is a lie.
          if (status >= 200 && status < 300) {
            stream.destroy();
            reject(
              new ApiError(
                'protocol',
                `${redact(url)} answered HTTP ${status} before the whole file was sent`,
                status,
              ),
            );
            return;
          }
        }
        const answer = { status, headers: res.headers, body: stream, url: new URL(res.url) };
        // Every byte was read: the file is closed by the time the answer is heard (its close is under way).
        if (file?.handed) void file.closed().then(() => resolve(answer));
        else resolve(answer);
      });
    });
  }
}

/**
 * The idle limit of a body going out: reset by its bytes leaving, by nothing coming in. When it runs out,
 * the request fails as a stalled file if the body was waiting on a read, else as a line that stopped taking
 * bytes.
 */
class SendWatch {
  private readonly timer: NodeJS.Timeout;
  private sent = 0;

  constructor(
    private readonly idleMs: number,
    private readonly file: OutgoingBody,
    abort: (why: Error) => void,
  ) {
    this.timer = setTimeout(
      () => abort(this.file.stalled(this.idleMs) ?? new TransportTimeout('socket', idleMs)),
      idleMs,
    );
  }

  moved(sent: number): void {
    if (sent > this.sent) {
      this.sent = sent;
      this.timer.refresh();
    }
    if (sent >= this.file.body.length) this.stop();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Reads a body into memory, at most `cap` bytes: `over` tells that there was more (the rest is not read;
 * the connection is closed). A failure part way is classified as a broken answer.
 */
export async function readCapped(
  body: Readable,
  cap: number,
  url: string,
): Promise<{ body: Buffer; over: boolean }> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (n + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - n));
        body.destroy();
        return { body: Buffer.concat(chunks), over: true };
      }
      chunks.push(chunk);
      n += chunk.length;
    }
  } catch (e) {
    throw errorFromFailure(e, url, true, { bytes: n });
  }
  return { body: Buffer.concat(chunks), over: false };
}

function isFile(body: Outgoing['body']): body is FileBody {
  return typeof body === 'object' && !Buffer.isBuffer(body);
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

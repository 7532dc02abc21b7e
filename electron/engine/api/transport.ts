import type { Readable } from 'node:stream';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { errorFromFailure, TransportTimeout } from './classify';
import type { FileBody } from './file-body';
import { sendFile, type FileAnswer } from './file-thread';
import { ApiError, redact } from './errors';
import type { HttpLimits } from './limits';
import { redirectTarget } from './links';

export type ProgressListener = (transferred: number, total: number | null) => void;

/** Response headers as undici gives them: lower-case names, a list when a header came more than once. */
export type ResponseHeaders = Dispatcher.ResponseData['headers'];

/**
 * - `call`: an API call with a small body: every phase limited, and the whole of it too.
 * - `upload`: a big body goes out (v2 create with a file, pre-signed PUT): idle limits while it is sent,
 *   then the answer gets the same deadlines as a call's.
 * - `download`: the status line gets a deadline; the body, idle limits only.
 */
export type Shape = 'call' | 'upload' | 'download';

export interface Timeouts {
  /** DNS lookup, TCP connect and TLS handshake together. */
  connectMs: number;
  /** Nothing moved on the socket, in either direction, for this long: the line is dead. */
  idleMs: number;
  /**
   * From the request sent to the status line (for a big body, from the last of it taken). Nothing moves on
   * the line meanwhile, so the idle limit bounds it too.
   */
  statusMs: number;
  /** From the status line to the body's end. */
  readMs: number | null;
  /** The whole request, connection to last byte. */
  wholeMs: number | null;
  /** The body is big: only idle limits while it is sent (undici's status-line timer would run meanwhile). */
  bigBody: boolean;
}

export function timeoutsFor(shape: Shape, l: HttpLimits): Timeouts {
  const base: Timeouts = {
    connectMs: l.connectMs,
    idleMs: l.idleMs,
    statusMs: Math.min(l.answerMs, l.idleMs),
    readMs: null,
    wholeMs: null,
    bigBody: false,
  };
  if (shape === 'download') return base;
  if (shape === 'upload') return { ...base, readMs: l.answerMs, bigBody: true };
  return { ...base, readMs: l.answerMs, wholeMs: l.callMs };
}

/** got's limit, kept: a chain longer than this is a loop. */
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 304, 307, 308]);

/**
 * One connection pool per pair of connection limits, shared by every client (as Node's global agent was):
 * keep-alive connections are reused across requests. HTTP/1.1 only, as the limits and error mapping assume.
 * The idle limit is the socket's own: it sees a write that creeps (a slow service reading an upload) as
 * alive, and one that stopped as dead, whatever the size of the chunks.
 */
const agents = new Map<string, Agent>();
function agentFor(t: Timeouts): Agent {
  const key = `${t.connectMs}/${t.idleMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ allowH2: false, connect: connectorFor(t) });
    agents.set(key, agent);
  }
  return agent;
}

/** undici's connector with the connect limit, and the idle limit set on each socket it opens. */
function connectorFor(t: Timeouts): buildConnector.connector {
  const connect = buildConnector({ timeout: t.connectMs, allowH2: false });
  return (options, callback) =>
    connect(options, (err, socket) => {
      socket?.setTimeout(t.idleMs, () => socket.destroy(new TransportTimeout('socket', t.idleMs)));
      if (err) callback(err, null);
      else if (socket) callback(null, socket);
    });
}

export interface Outgoing {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string> | undefined;
  /** A file is read as it goes out, by the file thread on a connection of its own; never sent to a redirect. */
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
 * The engine's one HTTP layer, over undici (and the file thread for requests carrying a file): no retries
 * (the queue retries, persisted, with backoff), no throwing on status, no decompression (bytes exactly as
 * sent), and the limits of one request shape. undici, or the file thread, keeps the connect limit and the
 * socket its idle limit; `Watch` below keeps the deadlines they have no notion of (the whole call, the body's
 * end, the status line after a big body).
 */
export class Transport {
  private readonly agent: Agent;

  constructor(
    private readonly timeouts: Timeouts,
    private readonly headers: Readonly<Record<string, string>>,
  ) {
    this.agent = agentFor(timeouts);
  }

  /**
   * Sends a request and waits for its status line, following redirects as `req.follow` allows. A failure
   * before the status line is the network's (or a stalled service's), as an ApiError naming `url`.
   */
  async open(target: URL, url: string, req: Outgoing): Promise<Answer> {
    const t = this.timeouts;
    // A download has no deadline of its own: undici's limits and the caller's signal are all it needs.
    const watch = t.wholeMs !== null || t.readMs !== null || t.bigBody ? new Watch(t, req.signal) : null;
    const signal = watch ? watch.signal : req.signal;
    const headers = req.headers ? { ...this.headers, ...req.headers } : this.headers;
    if (isFile(req.body)) return this.sendFile(target, url, req, req.body, headers, watch, signal);
    const body = req.body;
    let at = target;
    for (let hops = 0; ; hops++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await this.agent.request({
          origin: at.origin,
          path: `${at.pathname}${at.search}`,
          method: req.method,
          headers,
          body: body ?? null,
          signal: signal ?? null,
          headersTimeout: t.bigBody ? 0 : t.statusMs,
          bodyTimeout: t.idleMs,
        });
      } catch (e) {
        watch?.done();
        throw errorFromFailure(watch ? watch.reason(e) : e, url, false);
      }
      res.body.on('error', () => {}); // a late error must not crash the process: readers see it anyway
      const status = res.statusCode;
      const to = REDIRECT_STATUSES.has(status) ? redirectTarget(res.headers.location, at.href) : null;
      if (to && req.follow?.(to, target)) {
        res.body.destroy();
        if (hops + 1 > MAX_REDIRECTS) {
          watch?.done();
          throw new ApiError('redirect', `too many redirects from ${redact(url)}`);
        }
        at = to;
        continue;
      }
      watch?.answered(res.body);
      return { status, headers: res.headers, body: res.body, url: at };
    }
  }

  /**
   * A request carrying a file, sent by the file thread on a connection of its own: never redirected, and
   * the file is closed by the time the answer, or the failure, is heard here.
   */
  private async sendFile(
    target: URL,
    url: string,
    req: Outgoing,
    body: FileBody,
    headers: Readonly<Record<string, string>>,
    watch: Watch | null,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const t = this.timeouts;
    const onUpload = req.onUpload;
    let res: FileAnswer;
    try {
      res = await sendFile({
        url: target,
        method: req.method,
        headers,
        body,
        connectMs: t.connectMs,
        idleMs: t.idleMs,
        signal,
        onProgress: onUpload && ((sent) => onUpload(sent, body.length)),
        onSent: () => watch?.sent(),
      });
    } catch (e) {
      watch?.done();
      throw errorFromFailure(watch ? watch.reason(e) : e, url, false);
    }
    res.body.on('error', () => {});
    // A refusal may come before the whole file went out; an acceptance of a file not all sent is a lie.
    if (res.early && res.status >= 200 && res.status < 300) {
      res.body.destroy();
      watch?.done();
      throw new ApiError(
        'protocol',
        `${redact(url)} answered HTTP ${res.status} before the whole file was sent`,
        res.status,
      );
    }
    watch?.answered(res.body);
    return { status: res.status, headers: res.headers, body: res.body, url: target };
  }
}

/** The own deadlines of a call or an upload, and the caller's signal, as one AbortSignal. */
class Watch {
  private readonly controller = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private state: 'sending' | 'answered' | 'done' = 'sending';
  /** The status line's deadline after a big body. */
  private response: NodeJS.Timeout | null = null;
  private readonly onCancel: (() => void) | null = null;

  constructor(
    private readonly t: Timeouts,
    private readonly caller: AbortSignal | undefined,
  ) {
    if (t.wholeMs !== null) this.after(t.wholeMs, 'request');
    if (caller?.aborted) this.controller.abort(caller.reason);
    else if (caller) {
      this.onCancel = () => this.controller.abort(caller.reason);
      caller.addEventListener('abort', this.onCancel, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the request ended, when it was this watch (or the caller) that ended it. */
  reason(e: unknown): unknown {
    return this.controller.signal.aborted ? this.controller.signal.reason : e;
  }

  /** The whole of a big body is written: the status line gets its deadline. */
  sent(): void {
    if (this.state === 'sending') this.response = this.after(this.t.statusMs, 'response');
  }

  /** The status line arrived: its own deadline ends, the body gets one, and everything ends with it. */
  answered(body: Readable): void {
    this.state = 'answered';
    if (this.response) clearTimeout(this.response);
    if (this.t.readMs !== null) this.after(this.t.readMs, 'read');
    body.once('close', () => this.done());
  }

  done(): void {
    this.state = 'done';
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.length = 0;
    if (this.onCancel) this.caller?.removeEventListener('abort', this.onCancel);
  }

  private after(ms: number, phase: TransportTimeout['phase']): NodeJS.Timeout | null {
    if (this.state === 'done') return null;
    const timer = setTimeout(() => this.controller.abort(new TransportTimeout(phase, ms)), ms);
    this.timers.push(timer);
    return timer;
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

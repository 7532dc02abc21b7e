import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, Client, type Dispatcher } from 'undici';
import { errorFromFailure, TransportTimeout } from './classify';
import type { BodyChunks, FileBody } from './file-body';
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
function connectorFor(t: Timeouts, opened?: (socket: Socket) => void): buildConnector.connector {
  const connect = buildConnector({ timeout: t.connectMs, allowH2: false });
  return (options, callback) =>
    connect(options, (err, socket) => {
      socket?.setTimeout(t.idleMs, () => socket.destroy(new TransportTimeout('socket', t.idleMs)));
      if (err) callback(err, null);
      else if (socket) {
        opened?.(socket);
        callback(null, socket);
      }
    });
}

/**
 * A file goes out on a connection of its own, so the socket it is written to is known: the file's read
 * buffers are refilled only once that socket has written them (undici hands each chunk to the socket before
 * it asks for the next, and says nothing of when the socket is done with it). One connection more per file
 * sent is nothing beside the file.
 */
class OwnConnection {
  readonly client: Client;
  private socket: Socket | null = null;
  /** Body bytes handed to undici: each was passed to the socket before the body is pulled again. */
  private handed = 0;

  constructor(t: Timeouts, origin: string) {
    this.client = new Client(origin, { allowH2: false, connect: connectorFor(t, (s) => (this.socket = s)) });
  }

  async *feed(chunks: BodyChunks): BodyChunks {
    for await (const chunk of chunks) {
      this.handed += chunk.length;
      yield chunk;
    }
  }

  /** The socket still queues only bytes after `offset` (its queue holds the newest; headers count too). */
  readonly written = (offset: number): boolean => {
    const s = this.socket;
    return s !== null && !s.destroyed && this.handed - s.writableLength >= offset;
  };

  close(): void {
    this.client.destroy().catch(() => {});
  }
}

export interface Outgoing {
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string> | undefined;
  /** A file is read as it goes out, on a connection of its own; it is never sent again to a redirect. */
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
 * The engine's one HTTP layer, over undici: no retries (the queue retries, persisted, with backoff), no
 * throwing on status, no decompression (bytes exactly as sent), and the limits of one request shape.
 * undici keeps the connect, status-line and body-idle limits, the socket its idle limit; `Watch` below keeps
 * the deadlines undici has no notion of (the whole call, the body's end, the status line after a big body).
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
    let body: string | Buffer | BodyChunks | undefined;
    let own: OwnConnection | null = null;
    if (isFile(req.body)) {
      own = new OwnConnection(t, target.origin);
      const chunks = own.feed(req.body.chunks(own.written));
      body = watch && t.bigBody ? watch.sending(chunks, req.body.length, req.onUpload) : chunks;
    } else body = req.body;
    const follow = own ? undefined : req.follow;
    const headers = req.headers ? { ...this.headers, ...req.headers } : this.headers;
    let at = target;
    for (let hops = 0; ; hops++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await (own?.client ?? this.agent).request({
          origin: at.origin,
          path: `${at.pathname}${at.search}`,
          method: req.method,
          headers,
          // undici takes an AsyncIterable body (its Dispatcher docs say so); its types list only Readable.
          body: (body ?? null) as Dispatcher.DispatchOptions['body'],
          signal: signal ?? null,
          headersTimeout: t.bigBody ? 0 : t.statusMs,
          bodyTimeout: t.idleMs,
        });
      } catch (e) {
        watch?.done();
        // Refused or canceled part way: the file is closed before the failure is told.
        if (isChunks(body)) await body.return(undefined).catch(() => {});
        own?.close();
        throw errorFromFailure(watch ? watch.reason(e) : e, url, false);
      }
      res.body.on('error', () => {}); // a late error must not crash the process: readers see it anyway
      if (own) res.body.once('close', () => own?.close());
      const status = res.statusCode;
      const to = REDIRECT_STATUSES.has(status) ? redirectTarget(res.headers.location, at.href) : null;
      if (to && follow?.(to, target)) {
        res.body.destroy();
        if (hops + 1 > MAX_REDIRECTS) {
          watch?.done();
          throw new ApiError('redirect', `too many redirects from ${redact(url)}`);
        }
        at = to;
        continue;
      }
      watch?.answered(res.body);
      // Answered: no more of the file goes out, and it is closed before the caller hears the answer (the
      // body's last pull, which closes it, can come after the status line).
      if (own && isChunks(body)) await body.return(undefined).catch(() => {});
      return { status, headers: res.headers, body: res.body, url: at };
    }
  }
}

/** The own deadlines of a call or an upload, and the caller's signal, as one AbortSignal. */
class Watch {
  private readonly controller = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private state: 'sending' | 'answered' | 'done' = 'sending';
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

  /**
   * The body as it goes out, counted; once all of it is taken, the status line gets its deadline. Ended
   * early (undici stops pulling, or `return()`), the body under it is ended too, and its file closed.
   */
  async *sending(body: BodyChunks, total: number, onUpload: ProgressListener | undefined): BodyChunks {
    let n = 0;
    for await (const chunk of body) {
      n += chunk.length;
      onUpload?.(n, total);
      yield chunk;
    }
    if (this.state === 'sending') this.after(this.t.statusMs, 'response');
  }

  /** The status line arrived: the body gets its deadline, and everything ends with it. */
  answered(body: Readable): void {
    this.state = 'answered';
    if (this.t.readMs !== null) this.after(this.t.readMs, 'read');
    body.once('close', () => this.done());
  }

  done(): void {
    this.state = 'done';
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.length = 0;
    if (this.onCancel) this.caller?.removeEventListener('abort', this.onCancel);
  }

  private after(ms: number, phase: TransportTimeout['phase']): void {
    if (this.state === 'done') return;
    this.timers.push(setTimeout(() => this.controller.abort(new TransportTimeout(phase, ms)), ms));
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

function isChunks(body: string | Buffer | BodyChunks | undefined): body is BodyChunks {
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

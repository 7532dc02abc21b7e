import { channel } from 'node:diagnostics_channel';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { TransportTimeout } from './classify';
import { FileChangedError, FileStalledError, type FileBody } from './file-body';
import {
  fileThread,
  type FromThread,
  type SendMessage,
  type ToThread,
  type WireError,
} from './file-thread-code';
import type { ResponseHeaders } from './transport';

export interface FileRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: FileBody;
  connectMs: number;
  idleMs: number;
  signal?: AbortSignal | undefined;
  /** Bytes of the body written so far. */
  onProgress?: ((sent: number) => void) | undefined;
  /** The whole body is written. */
  onSent?: (() => void) | undefined;
}

export interface FileAnswer {
  status: number;
  headers: ResponseHeaders;
  /** Read it to its end or destroy it: either ends the request. */
  body: Readable;
}

/**
 * `dubdesk:file-request` tells when a request carrying a file starts (`{ id, phase: 'start' }`) and when its
 * status line arrives (`{ id, phase: 'answer' }`): the benchmark times uploads by it, as curl times its one.
 */
export const fileRequestChannel = channel('dubdesk:file-request');

interface Pending {
  request: FileRequest;
  answered: (answer: FileAnswer) => void;
  failed: (error: Error) => void;
  body: Readable | null;
  unlisten: () => void;
  /** Still writing the body: the thread must be heard from now and then. */
  sending: boolean;
  heardAt: number;
}

/** How often the engine looks for a thread stuck in a read. */
const WATCH_MS = 250;
/**
 * Threads given up on while stuck in a read, not yet gone (a read that never returns keeps its thread):
 * past this many, a file is not handed to a new one, and the job waits like one that cannot reach the
 * service.
 */
const MAX_STUCK = 3;

/**
 * The engine's side of the file thread (file-thread-code.ts): one thread for every file being sent, started
 * on the first and kept; it holds the process open only while a request is under way.
 */
class FileThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readyNow: (() => void) | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private watch: NodeJS.Timeout | null = null;
  private readonly stuck = new Set<Worker>();

  send(request: FileRequest): Promise<FileAnswer> {
    if (this.stuck.size >= MAX_STUCK)
      return Promise.reject(new FileStalledError(filePath(request.body), 2 * request.idleMs));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<FileAnswer>((answered, failed) => {
      const { signal } = request;
      const onAbort = () => {
        const p = this.pending.get(id);
        // Before the answer, the thread closes the file and then says `fail`; after it, the body ends here.
        if (p?.body) p.body.destroy(signal?.reason instanceof Error ? signal.reason : new Error('canceled'));
        else this.tell({ type: 'abort', id });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const unlisten = () => signal?.removeEventListener('abort', onAbort);
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, {
        request,
        answered,
        failed,
        body: null,
        unlisten,
        sending: true,
        heardAt: performance.now(),
      });
      this.watch ??= setInterval(() => this.lookForStuck(), WATCH_MS).unref();
      const { body } = request;
      const message: SendMessage = {
        type: 'send',
        id,
        url: request.url.href,
        method: request.method,
        headers: request.headers,
        parts: body.parts.map((p) => (Buffer.isBuffer(p) ? { bytes: p } : p)),
        connectMs: request.connectMs,
        idleMs: request.idleMs,
      };
      if (fileRequestChannel.hasSubscribers) fileRequestChannel.publish({ id, phase: 'start' });
      this.tell(message);
      if (signal?.aborted) onAbort();
    });
  }

  /** Starts the thread if it is not running; resolves once it listens (or is gone: `send` says why). */
  whenReady(): Promise<void> {
    this.started();
    return this.ready ?? Promise.resolve();
  }

  private tell(m: ToThread): void {
    this.worker?.postMessage(m);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // tsx and vitest compile with esbuild's keepNames, which wraps functions in `__name(...)`.
    const code = `const __name = (f) => f;\n(${fileThread.toString()})(require);`;
    const worker = new Worker(code, { eval: true, name: 'dubdesk file sender' });
    worker.unref();
    this.ready = new Promise<void>((resolve) => (this.readyNow = resolve));
    worker.on('message', (m: FromThread) => this.received(m));
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.readyNow?.();
      for (const [id, p] of this.pending) this.settle(id, p, new Error(`the file sender stopped (${why})`));
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private received(m: FromThread): void {
    if (m.type === 'ready') {
      this.readyNow?.();
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    p.heardAt = performance.now();
    switch (m.type) {
      case 'progress':
        p.request.onProgress?.(m.sent);
        return;
      case 'sent':
        p.sending = false;
        p.request.onSent?.();
        return;
      case 'answer': {
        p.sending = false;
        const id = m.id;
        p.body = new Readable({
          read() {},
          destroy: (error, done) => {
            // Destroyed before its end (a capped read, a redirect, a deadline): the thread stops reading.
            if (this.pending.get(id) === p) {
              this.tell({ type: 'abort', id });
              this.forget(id, p);
            }
            done(error);
          },
        });
        if (fileRequestChannel.hasSubscribers) fileRequestChannel.publish({ id, phase: 'answer' });
        p.answered({ status: m.status, headers: m.headers as ResponseHeaders, body: p.body });
        return;
      }
      case 'data':
        p.body?.push(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
        return;
      case 'end':
        this.forget(m.id, p);
        p.body?.push(null);
        return;
      case 'fail':
        this.settle(m.id, p, revive(m.error));
    }
  }

  /**
   * A thread blocked in a read runs none of its timers, so only the engine can notice: silent for twice a
   * request's idle limit while sending (it tells progress every 100 ms while the socket takes bytes, and
   * fails by its own idle limit when the socket does not). Its requests fail, and the next file gets a new
   * thread; the stuck one is ended as soon as its read returns.
   */
  private lookForStuck(): void {
    const now = performance.now();
    const worker = this.worker;
    const silent = [...this.pending.values()].some(
      (p) => p.sending && now - p.heardAt > 2 * p.request.idleMs,
    );
    if (!worker || !silent) return;
    this.worker = null;
    this.ready = null;
    this.stuck.add(worker);
    worker.unref(); // a read that never returns must not keep the process from exiting
    void worker.terminate().finally(() => this.stuck.delete(worker));
    for (const [id, p] of this.pending)
      this.settle(id, p, new FileStalledError(filePath(p.request.body), now - p.heardAt));
  }

  private settle(id: number, p: Pending, error: Error): void {
    this.forget(id, p);
    if (p.body) p.body.destroy(error);
    else p.failed(error);
  }

  private forget(id: number, p: Pending): void {
    if (this.pending.get(id) !== p) return;
    this.pending.delete(id);
    p.unlisten();
    if (this.pending.size === 0) {
      this.worker?.unref();
      if (this.watch) clearInterval(this.watch);
      this.watch = null;
    }
  }
}

/** The file a body carries, for messages. */
function filePath(body: FileBody): string {
  for (const part of body.parts) if (!Buffer.isBuffer(part)) return part.path;
  return 'the file';
}

/** The error the thread met, as the class the engine classifies. */
function revive(w: WireError): Error {
  if (w.name === 'FileChangedError' && w.path !== undefined) return new FileChangedError(w.path);
  if (w.name === 'TransportTimeout' && w.phase !== undefined && w.ms !== undefined)
    return new TransportTimeout(w.phase, w.ms);
  const e = Object.assign(new Error(w.message), w.code === undefined ? {} : { code: w.code });
  e.name = w.name;
  return e;
}

const thread = new FileThread();

/**
 * Starts the file thread ahead of the first file (the engine does when it starts working the queue), so the
 * first upload does not wait for a thread to boot; resolves once it listens.
 */
export function readyFileThread(): Promise<void> {
  return thread.whenReady();
}

/** Sends a request whose body holds a file, and resolves at its status line. Failures are the raw errors. */
export function sendFile(request: FileRequest): Promise<FileAnswer> {
  return thread.send(request);
}

import { channel } from 'node:diagnostics_channel';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { TransportTimeout } from './classify';
import { FileChangedError, FileStalledError, type FileBody } from './file-body';
import {
  fileThread,
  type FromThread,
  type SendMessage,
  type ThreadData,
  type ToThread,
  type WireError,
} from './file-thread-code';
import type { ResponseHeaders } from './transport';

export interface FileRequest {
  url: URL;
  method: string;
  headers: Readonly<Record<string, string>>;
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
  /** The answer came before the whole body was handed to the socket. */
  early: boolean;
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
  /** Still writing the body: a thread stuck in a read would hold it. */
  sending: boolean;
  /** Answer bytes taken in since the thread was last told it may send more. */
  owed: number;
}

/** How often the engine looks for a thread stuck in a read. */
const WATCH_MS = 250;
/** A canceled request the thread does not confirm within this is let go anyway. */
const ABORT_GRACE_MS = 1000;
/**
 * Threads given up on while stuck in a read, not yet gone (a read that never returns keeps its thread):
 * past this many, a file is not handed to a new one, and the job waits like one that cannot reach the
 * service.
 */
const MAX_STUCK = 3;

/**
 * The engine's side of the file thread (file-thread-code.ts): one thread for every file being sent, started
 * when the queue starts working and kept; it holds the process open only while a request is under way.
 */
export class FileThread {
  /** `code`: what the thread runs; tests give a thread that blocks, to stand for a read that never returns. */
  constructor(private readonly code: (load: NodeJS.Require) => void = fileThread) {}

  private worker: Worker | null = null;
  /** Which request's file the current thread is opening or reading (0: none). */
  private reading: Int32Array | null = null;
  private ready: Promise<void> | null = null;
  private readyNow: (() => void) | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private watch: NodeJS.Timeout | null = null;
  private heardAt = 0;
  private lookedAt = 0;
  private readonly stuck = new Set<Worker>();

  send(request: FileRequest): Promise<FileAnswer> {
    if (this.stuck.size >= MAX_STUCK)
      return Promise.reject(new FileStalledError('earlier files', 2 * request.idleMs));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<FileAnswer>((answered, failed) => {
      const { signal } = request;
      const reason = () => (signal?.reason instanceof Error ? signal.reason : new Error('canceled'));
      const onAbort = () => {
        const p = this.pending.get(id);
        if (!p) return;
        // After the answer, its body ends here. Before it, the thread closes the file and says `fail`;
        // one that does not say it soon (stuck in a read) is not waited for.
        if (p.body) p.body.destroy(reason());
        else {
          this.tell({ type: 'abort', id });
          setTimeout(() => {
            if (this.pending.get(id) !== p) return;
            this.settle(id, p, reason());
            // Stuck on this very file: the thread gets no more files.
            if (this.worker === worker && this.reading && Atomics.load(this.reading, 0) === id)
              this.retire(worker, new FileStalledError(filePath(request.body), ABORT_GRACE_MS));
          }, ABORT_GRACE_MS).unref();
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const unlisten = () => signal?.removeEventListener('abort', onAbort);
      if (this.pending.size === 0) {
        worker.ref();
        this.heardAt = this.lookedAt = performance.now();
        this.watch ??= setInterval(() => this.lookForStuck(), WATCH_MS).unref();
      }
      this.pending.set(id, { request, answered, failed, body: null, unlisten, sending: true, owed: 0 });
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
    const code = `const __name = (f) => f;\n(${this.code.toString()})(require);`;
    const data: ThreadData = { reading: new SharedArrayBuffer(4) };
    const worker = new Worker(code, { eval: true, name: 'dubdesk file sender', workerData: data });
    this.reading = new Int32Array(data.reading);
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
    // Held while it boots, so that waiting for it keeps the process up; let go once it listens, unless a
    // file is already waiting for it.
    this.worker = worker;
    return worker;
  }

  private received(m: FromThread): void {
    this.heardAt = performance.now();
    if (m.type === 'ready') {
      if (this.pending.size === 0) this.worker?.unref();
      this.readyNow?.();
      return;
    }
    if (m.type === 'alive') return;
    const p = this.pending.get(m.id);
    if (!p) return;
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
          // Taken in: the thread may send as much again.
          read: () => {
            if (p.owed === 0 || this.pending.get(id) !== p) return;
            this.tell({ type: 'more', id, bytes: p.owed });
            p.owed = 0;
          },
          destroy: (error, done) => {
            // Destroyed before its end (a capped read, a redirect, a deadline): the thread stops reading.
            if (this.pending.get(id) === p) {
              this.tell({ type: 'abort', id });
              this.forget(id, p);
            }
            done(error);
          },
        });
        // A failure can come before the caller listens: readers see it anyway, it must not crash the process.
        p.body.on('error', () => {});
        if (fileRequestChannel.hasSubscribers) fileRequestChannel.publish({ id, phase: 'answer' });
        p.answered({ status: m.status, headers: m.headers as ResponseHeaders, body: p.body, early: m.early });
        return;
      }
      case 'data':
        p.owed += m.chunk.byteLength;
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
   * A thread blocked in a read runs none of its timers, so only the engine can notice: the thread says it
   * is alive four times a second while it has work, and one silent for twice the idle limit of a request it
   * is still sending is stuck. Its requests fail naming the file it is stuck on, the next file gets a new
   * thread, and the stuck one is ended as soon as its read returns. A look that itself comes late (the
   * engine's loop was busy, and the thread's messages wait behind it) decides nothing.
   */
  private lookForStuck(): void {
    const now = performance.now();
    const late = now - this.lookedAt > 2 * WATCH_MS;
    this.lookedAt = now;
    const worker = this.worker;
    if (late || !worker) return;
    const sending = [...this.pending.values()].filter((p) => p.sending);
    if (!sending.some((p) => now - this.heardAt > 2 * p.request.idleMs)) return;
    const on = this.pending.get(this.reading ? Atomics.load(this.reading, 0) : 0);
    this.retire(worker, new FileStalledError(on ? filePath(on.request.body) : 'a file', now - this.heardAt));
  }

  /**
   * Gives a stuck thread up: what it holds fails with `error`, the next file gets a new thread, and this one
   * ends once its read returns. (Until then it also holds the process's exit, as a read stuck in the kernel
   * would hold any reader.)
   */
  private retire(worker: Worker, error: Error): void {
    this.worker = null;
    this.ready = null;
    this.stuck.add(worker);
    void worker.terminate().finally(() => this.stuck.delete(worker));
    worker.unref(); // after terminate(), which refs it again
    for (const [id, p] of this.pending) this.settle(id, p, error);
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
  if (w.name === 'FileChangedError' && w.path !== undefined) return new FileChangedError(w.path, w.message);
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

import type * as FsModule from 'node:fs';
import type * as HttpModule from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type * as HttpsModule from 'node:https';
import type * as WorkerThreadsModule from 'node:worker_threads';

/**
 * The code of the thread that sends requests carrying a file (v2 create, pre-signed PUT). It reads the file
 * with synchronous 1 MiB reads and writes the socket itself, as curl does on its one thread: on a machine
 * where waking another thread is dear, a read through the thread pool per MiB made uploads slower than curl
 * (measured: 0.86x curl with async reads on the engine's loop, 1.16x from here). A read that hangs (a
 * network share asleep) holds only this thread, never the engine's loop.
 *
 * It runs from its own source text (`new Worker(code, { eval: true })`), so it needs no file of its own in
 * the Electron, CLI, test or bench builds: the function below must use nothing from outside its body but
 * the `load` it is given (`require`, for Node's built-in modules only).
 */

/** A part of a request body: bytes as they are, or `size` bytes of a file from its start. */
export type WirePart = { bytes: Uint8Array } | { path: string; size: number };

export interface SendMessage {
  type: 'send';
  id: number;
  url: string;
  method: string;
  headers: Readonly<Record<string, string>>;
  parts: WirePart[];
  /** DNS, TCP connect and TLS handshake together. */
  connectMs: number;
  /** Nothing moved on the socket, either way, for this long. */
  idleMs: number;
}

export type ToThread =
  | SendMessage
  | { type: 'abort'; id: number }
  /** The engine took `bytes` more of the answer: that much more may come (the answer's backpressure). */
  | { type: 'more'; id: number; bytes: number };

/** What the thread is given at its start (`workerData`). */
export interface ThreadData {
  /**
   * One Int32: the id of the request whose file the thread is opening or reading right now, else 0. The
   * engine reads it when the thread stops answering, to name the file it is stuck on.
   */
  reading: SharedArrayBuffer;
}

/** An error as it crosses threads: enough to rebuild the one the engine classifies. */
export interface WireError {
  name: string;
  message: string;
  code?: string | undefined;
  /** A limit of the thread's own (TransportTimeout). */
  phase?: 'connect' | 'socket' | undefined;
  ms?: number | undefined;
  /** The file that changed while it was sent (FileChangedError). */
  path?: string | undefined;
}

export type FromThread =
  /** The thread is up and listening (sent once). */
  | { type: 'ready' }
  /** Sent every quarter second while a request is under way: the thread is not stuck in a read. */
  | { type: 'alive' }
  /** Bytes of the body the socket has written so far (throttled). */
  | { type: 'progress'; id: number; sent: number }
  /** The whole body is written: the answer's deadline starts. */
  | { type: 'sent'; id: number }
  /**
   * The status line: the file is closed by now. `early`: it came before the whole body was handed to the
   * socket (a refusal can; an acceptance cannot be of a file it has not had).
   */
  | { type: 'answer'; id: number; status: number; headers: IncomingHttpHeaders; early: boolean }
  | { type: 'data'; id: number; chunk: Uint8Array }
  | { type: 'end'; id: number }
  /** The request failed, before or after its answer; the file is closed by now. */
  | { type: 'fail'; id: number; error: WireError };

export function fileThread(load: NodeJS.Require): void {
  const { parentPort, workerData } = load('node:worker_threads') as typeof WorkerThreadsModule;
  const fs = load('node:fs') as typeof FsModule;
  const http = load('node:http') as typeof HttpModule;
  const https = load('node:https') as typeof HttpsModule;
  const port = parentPort;
  if (!port) return;
  const reading = new Int32Array((workerData as ThreadData).reading);

  const READ_BYTES = 1024 * 1024;
  /** Read buffers per request: one is being read into while the socket writes the others. */
  const RING = 4;
  /** Progress is told at most this often: each message wakes the engine's loop. */
  const PROGRESS_MS = 100;
  /** How much of an answer may be on its way to the engine before it has taken it. */
  const ANSWER_WINDOW = 256 * 1024;
  const ALIVE_MS = 250;
  /** Full-size read buffers kept between requests: two uploads' worth. */
  const SPARE = 2 * RING;
  const spare: Buffer[] = [];

  /** Per request under way: abort it, or let more of its answer come. */
  const live = new Map<number, { abort: () => void; more: (bytes: number) => void }>();
  let alive: ReturnType<typeof setInterval> | null = null;
  const started = () => {
    alive ??= setInterval(() => post({ type: 'alive' }), ALIVE_MS);
  };
  const ended = () => {
    if (live.size > 0 || !alive) return;
    clearInterval(alive);
    alive = null;
  };
  const post = (m: FromThread, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

  const wire = (e: unknown): WireError => {
    if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
    const x = e as Error & { code?: unknown; phase?: unknown; ms?: unknown; path?: unknown };
    return {
      name: e.name,
      message: e.message,
      code: typeof x.code === 'string' ? x.code : undefined,
      phase: x.phase === 'connect' || x.phase === 'socket' ? x.phase : undefined,
      ms: typeof x.ms === 'number' ? x.ms : undefined,
      path: typeof x.path === 'string' ? x.path : undefined,
    };
  };
  const failure = (name: string, message: string, extra: Partial<WireError>) =>
    Object.assign(new Error(message), { name, ...extra });

  const send = (m: SendMessage) => {
    const target = new URL(m.url);
    const tls = target.protocol === 'https:';
    // Keep-alive, though the line is closed after this one request: a server told `close` ends the line
    // when it has answered, and one that answers a refusal part way (403, 413) then resets it under the
    // bytes still coming, which can lose its answer before it is read.
    const headers = { connection: 'keep-alive', ...m.headers };
    const req = (tls ? https : http).request(target, { method: m.method, headers, agent: false });
    let state: 'sending' | 'answered' | 'over' = 'sending';
    let fd: number | null = null;
    const closeFile = () => {
      if (fd === null) return;
      try {
        fs.closeSync(fd);
      } catch {
        /* closed is closed */
      }
      fd = null;
    };
    let waiting: (() => void) | null = null;
    const wake = () => {
      const w = waiting;
      waiting = null;
      w?.();
    };
    const slots: { buffer: Buffer; busy: boolean }[] = [];
    const finish = (error?: unknown) => {
      if (state === 'over') return;
      state = 'over';
      live.delete(m.id);
      ended();
      closeFile();
      wake();
      // Buffers the socket no longer holds serve the next request.
      for (const slot of slots)
        if (!slot.busy && slot.buffer.length === READ_BYTES && spare.length < SPARE) spare.push(slot.buffer);
      slots.length = 0;
      req.destroy();
      if (error === undefined) post({ type: 'end', id: m.id });
      else post({ type: 'fail', id: m.id, error: wire(error) });
    };
    let credit = ANSWER_WINDOW;
    let answer: HttpModule.IncomingMessage | null = null;
    live.set(m.id, {
      abort: () => finish(failure('AbortError', 'canceled', {})),
      more: (bytes) => {
        credit += bytes;
        if (credit > 0 && answer?.isPaused()) answer.resume();
      },
    });
    started();
    let handed = false;
    /** A call that can block on the file, marked as such for the engine while it runs. */
    const blocking = <T>(call: () => T): T => {
      Atomics.store(reading, 0, m.id);
      try {
        return call();
      } finally {
        Atomics.store(reading, 0, 0);
      }
    };

    // A small file gets buffers of its size: a fresh MiB for each of many small uploads is what the
    // garbage collector would spend its time on.
    const slotBytes = Math.min(READ_BYTES, Math.max(0, ...m.parts.map((p) => ('size' in p ? p.size : 0))));
    const freeSlot = async () => {
      for (;;) {
        const free = slots.find((s) => !s.busy);
        if (free) return free;
        if (slots.length < RING) {
          const reused = slotBytes === READ_BYTES ? spare.pop() : undefined;
          const slot = { buffer: reused ?? Buffer.allocUnsafeSlow(slotBytes), busy: false };
          slots.push(slot);
          return slot;
        }
        await new Promise<void>((resolve) => (waiting = resolve));
        if (state !== 'sending') return null;
      }
    };

    const pump = async () => {
      let sent = 0;
      let toldAt = Date.now();
      const wrote = (n: number) => {
        sent += n;
        const now = Date.now();
        if (now - toldAt >= PROGRESS_MS && state === 'sending') {
          toldAt = now;
          post({ type: 'progress', id: m.id, sent });
        }
      };
      for (const part of m.parts) {
        if (state !== 'sending') return;
        if ('bytes' in part) {
          const bytes = Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength);
          req.write(bytes, () => wrote(bytes.length));
          continue;
        }
        // Non-blocking, so a FIFO put in the file's place cannot hang the open; and only a regular file.
        fd = blocking(() => fs.openSync(part.path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)));
        const opened = fd;
        if (!blocking(() => fs.fstatSync(opened)).isFile())
          throw failure('FileChangedError', `${part.path} is no longer a regular file`, { path: part.path });
        for (let at = 0; at < part.size;) {
          const slot = await freeSlot();
          if (!slot || state !== 'sending' || fd === null) return;
          const file = fd;
          const n = blocking(() =>
            fs.readSync(file, slot.buffer, 0, Math.min(slot.buffer.length, part.size - at), at),
          );
          if (n === 0)
            throw failure('FileChangedError', `${part.path} changed while it was being sent`, {
              path: part.path,
            });
          at += n;
          slot.busy = true;
          // Refilled only once the socket has written it.
          req.write(slot.buffer.subarray(0, n), () => {
            slot.busy = false;
            wrote(n);
            wake();
          });
        }
        closeFile();
      }
      handed = true;
      req.end(() => {
        if (state === 'sending') post({ type: 'sent', id: m.id });
      });
    };

    req.on('socket', (socket) => {
      const limit = setTimeout(
        () =>
          req.destroy(failure('TransportTimeout', 'connect timeout', { phase: 'connect', ms: m.connectMs })),
        m.connectMs,
      );
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        clearTimeout(limit);
        // The file is opened once there is somewhere to send it.
        pump().catch(finish);
      });
      socket.once('close', () => clearTimeout(limit));
      socket.setTimeout(m.idleMs, () =>
        req.destroy(failure('TransportTimeout', 'socket timeout', { phase: 'socket', ms: m.idleMs })),
      );
    });
    req.on('error', (e) => finish(e));
    // Once answered, the answer's own end or cut decides (the request can close before its last bytes are read).
    req.on('close', () => {
      if (state === 'sending') finish(failure('Error', 'other side closed', { code: 'ECONNRESET' }));
    });
    req.on('response', (res) => {
      if (state !== 'sending') {
        res.destroy();
        return;
      }
      // Answered: no more of the file goes out.
      state = 'answered';
      closeFile();
      wake();
      answer = res;
      post({ type: 'answer', id: m.id, status: res.statusCode ?? 0, headers: res.headers, early: !handed });
      res.on('data', (chunk: Buffer) => {
        const copy = new Uint8Array(chunk);
        credit -= copy.byteLength; // before the copy is handed over, which leaves it empty here
        post({ type: 'data', id: m.id, chunk: copy }, [copy.buffer]);
        // The engine has not taken what came before: the line waits (as undici pauses its socket).
        if (credit <= 0) res.pause();
      });
      res.on('end', () => finish());
      res.on('error', (e) => finish(e));
      res.on('close', () => {
        if (!res.complete) finish(failure('Error', 'aborted', { code: 'ECONNRESET' }));
      });
    });
  };

  port.on('message', (m: ToThread) => {
    if (m.type === 'send') {
      try {
        send(m);
      } catch (e) {
        post({ type: 'fail', id: m.id, error: wire(e) });
      }
    } else if (m.type === 'abort') live.get(m.id)?.abort();
    else live.get(m.id)?.more(m.bytes);
  });
  post({ type: 'ready' });
}

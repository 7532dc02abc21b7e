import { createHash } from 'node:crypto';
import { close, constants, createReadStream, fstat, open, read, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { FileChangedError, FileStalledError, type FileBody, type SourceIdentity } from './file-body';
import type { RateCap } from './rate-cap';

/** Reads of a file going out: 1 MiB each. */
export const READ_BYTES = 1024 * 1024;
/**
 * What the request is handed at a time: the idle limit of an upload counts bytes that have left (a write's
 * callback), so a line that creeps must see a write finish well within it. 64 KiB at 16 KiB/s is 4 s.
 */
export const WRITE_BYTES = 64 * 1024;

/**
 * How a source's bytes are read once it is open: Node's own `read` and `close`, which run in libuv's thread
 * pool. Tests give reads that never return, as a network share asleep does.
 */
export interface SourceReads {
  read: typeof read;
  close: typeof close;
}

export const nodeReads: SourceReads = { read, close };

/**
 * Files whose reads were given up on while still blocked (each holds one of libuv's four pool threads until
 * its read returns). Past this many, no new file is opened: the pool stays free for everything else.
 */
const MAX_STUCK = 2;
const stuck = new Set<string>();

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);

/**
 * A request body holding a file, as a stream: the bytes before the file, the file read as it goes out, the
 * bytes after. It knows what it is waiting on (the disk, or the line) so that a stall can be named.
 */
export class OutgoingBody {
  readonly stream: Readable;
  /** The file being opened or read, with the request waiting for it; null when the body waits for the line. */
  private reading: string | null = null;
  /** Bytes handed to the request so far. */
  private given = 0;
  private readonly files: { path: string; stream: ReadStream | null; closed: Promise<void> }[] = [];

  constructor(
    readonly body: FileBody,
    private readonly reads: SourceReads = nodeReads,
    /** The uplink's cap, shared with every upload at once; bytes wait for it only while it is set. */
    private readonly cap: RateCap | null = null,
  ) {
    for (const part of body.parts) {
      if (Buffer.isBuffer(part)) continue;
      // A file whose last read has not returned is not read again; past MAX_STUCK of them, no file is.
      if (stuck.has(part.path))
        throw new FileStalledError(
          part.path,
          0,
          `reading ${part.path} is still stuck (a disk or network share that stopped answering?)`,
        );
      if (stuck.size >= MAX_STUCK) {
        const files = [...stuck].join(', ');
        throw new FileStalledError(
          files,
          0,
          `reading ${files} is still stuck (a disk or network share that stopped answering?); no other file is read until that returns`,
        );
      }
    }
    this.stream = Readable.from(this.bytes(), { objectMode: false, highWaterMark: READ_BYTES });
  }

  /** Every byte was handed to the request. */
  get handed(): boolean {
    return this.given >= this.body.length;
  }

  /** What the body was waiting on when nothing went out for `ms`: a file that stopped answering, or not. */
  stalled(ms: number): FileStalledError | null {
    const path = this.reading;
    if (path === null) return null;
    stuck.add(path);
    const file = this.files.find((f) => f.path === path);
    void (file ? file.closed : Promise.resolve()).then(() => stuck.delete(path));
    return new FileStalledError(path, ms);
  }

  /** Resolves once every file this body opened is closed (never while one of them is stuck in a read). */
  async closed(): Promise<void> {
    await Promise.all(this.files.map((f) => f.closed));
  }

  /** Once every file is closed: null. When a read still hangs `ms` later: that file's stall, named. */
  async closedWithin(ms: number): Promise<FileStalledError | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const outcome = await Promise.race([this.closed().then(() => 'closed' as const), late]);
    clearTimeout(timer);
    return outcome === 'closed' ? null : this.stalled(ms);
  }

  private async *bytes(): AsyncGenerator<Buffer> {
    for (const part of this.body.parts) {
      if (!Buffer.isBuffer(part)) yield* this.file(part.path, part.size, part.expect);
      else if (this.cap?.capped) yield* this.paced(part, this.cap);
      else yield* this.slices(part);
    }
  }

  /** Bytes as the cap lets them go: a piece at a time, each once its share of the rate has passed. */
  private async *paced(bytes: Buffer, cap: RateCap): AsyncGenerator<Buffer> {
    for (let at = 0; at < bytes.length;) {
      const slice = bytes.subarray(at, at + Math.min(cap.piece ?? WRITE_BYTES, WRITE_BYTES));
      await cap.take(slice.length);
      at += slice.length;
      this.given += slice.length;
      yield slice;
    }
  }

  private *slices(bytes: Buffer): Generator<Buffer> {
    for (let at = 0; at < bytes.length; at += WRITE_BYTES) {
      const slice = bytes.subarray(at, at + WRITE_BYTES);
      this.given += slice.length;
      yield slice;
    }
  }

  private async *file(path: string, size: number, expect?: SourceIdentity): AsyncGenerator<Buffer> {
    this.reading = path;
    let done: () => void = () => {};
    const entry = { path, stream: null as ReadStream | null, closed: new Promise<void>((r) => (done = r)) };
    this.files.push(entry);
    let fd: number;
    try {
      // Non-blocking, so that a FIFO put in the file's place cannot hang the open; and only a regular file.
      fd = await openFd(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (e) {
      done();
      throw e;
    }
    try {
      if (!(await fstatFd(fd)).isFile())
        throw new FileChangedError(path, `${path} is no longer a regular file`);
    } catch (e) {
      await closeFd(fd).catch(() => {});
      done();
      throw e;
    }
    if (size === 0) {
      await closeFd(fd).catch(() => {});
      done();
      this.reading = null;
      return;
    }
    const file = createReadStream(path, {
      fd,
      start: 0,
      end: size - 1,
      highWaterMark: READ_BYTES,
      fs: this.reads,
    });
    entry.stream = file;
    file.once('close', done);
    let sent = 0;
    // The content is hashed as it goes out (never read twice), and checked before its last bytes leave.
    const hash = expect?.hash ? createHash('sha256') : null;
    try {
      for await (const chunk of file as AsyncIterable<Buffer>) {
        this.reading = null;
        sent += chunk.length;
        hash?.update(chunk);
        if (expect && sent >= size) await stillTheSame(path, expect, hash?.digest('hex') ?? null);
        if (this.cap?.capped) yield* this.paced(chunk, this.cap);
        else yield* this.slices(chunk);
        this.reading = path;
      }
    } finally {
      file.destroy();
    }
    this.reading = null;
    if (sent < size) throw new FileChangedError(path);
  }
}

/**
 * The file just before its last bytes leave: the size and modification time it had when it was added, and
 * the content that went out. A file that changed under its upload fails it before the request is whole, so
 * the service never creates a dub of a half-written or mixed file.
 */
async function stillTheSame(path: string, expect: SourceIdentity, sentHash: string | null): Promise<void> {
  const now = await stat(path).catch(() => null);
  if (!now || now.size !== expect.size || Math.round(now.mtimeMs) !== Math.round(expect.mtimeMs))
    throw new FileChangedError(
      path,
      `${path} changed while it was being sent${now ? ` (now ${now.size} bytes, was ${expect.size})` : ' (it is gone)'}; nothing was created from it`,
    );
  if (expect.hash && sentHash !== expect.hash)
    throw new FileChangedError(
      path,
      `${path} changed while it was being sent (its content is not what was added); nothing was created from it`,
    );
}

import { createHash, type Hash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { NameTakenError, type FileIdentity } from '../files/own-file';
import { errorFromFailure } from './classify';
import { ApiError, redact } from './errors';
import type { HttpLimits } from './limits';
import { RateCap } from './rate-cap';
import type { ProgressListener } from './transport';

/**
 * How much of a download's start is kept in memory for sniffing: what the sniffer reads (outputs/sniff's
 * `SNIFF_BYTES`), so a fresh download's part is not opened again for it.
 */
export const HEAD_BYTES = 4100;
/** Bytes read ahead while the part file opens: at most this many, then the line waits. */
const HOLD_BYTES = 4 * 1024 * 1024;

const mib = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

export interface Downloaded {
  bytes: number;
  contentType: string | null;
  /** SHA-256 of the whole file, hex: of the bytes as they were written (and of the part it resumed). */
  sha256: string;
  /**
   * The file's first bytes (up to HEAD_BYTES), kept as they were written when this transfer wrote the file
   * from its start; null when it appended to an earlier part (the start is on disk, not here).
   */
  head: Buffer | null;
  /** The file written: what is moved into place must be this very file (see `settle`). */
  identity: FileIdentity;
}

/** A part file open for writing. `write` returns once the whole chunk is on disk (short writes resumed). */
export interface PartFile {
  write(chunk: Buffer): Promise<void>;
  close(): Promise<void>;
  identity: FileIdentity;
}

/**
 * The one place downloads touch the disk; tests put a disk that fills up here. A new part is created where
 * no entry is (never through a link, never over anything); an earlier one is appended to only when it is
 * Dubdesk's own and the file `expected` names (see files/own-file). Either refusal is a NameTakenError.
 */
export interface PartFiles {
  open(path: string, append: boolean, expected?: FileIdentity): Promise<PartFile>;
}

/** The disk refused the download's bytes (full, read-only, no permission): the user's to fix, not the service's. */
export class PartWriteError extends Error {
  readonly code: string;

  constructor(
    failure: NodeJS.ErrnoException,
    /** Bytes the file still needs, when the server said how long it is. */
    readonly remainingBytes: number | null,
  ) {
    super(failure.message);
    this.name = 'PartWriteError';
    this.code = failure.code ?? 'EIO';
  }
}

/** What a part file held before this transfer: Dubdesk's own earlier part, or nothing. */
export interface EarlierPart {
  /** Bytes it holds (0: none). */
  have: number;
  /** The file, when there is one. */
  identity: FileIdentity | undefined;
  /** The hash of what it holds, to be continued with what arrives. */
  kept: Hash | null;
}

/** A body to write into a part file, as the server's answer planned it (see ranges.ts `planDownload`). */
export interface PartBody {
  url: string;
  part: string;
  status: number;
  stream: Readable;
  contentType: string | null;
  earlier: EarlierPart;
  /** After what the part holds, or from the start. */
  append: boolean;
  /** The whole file's length, when the server said. */
  expected: number | null;
  /** The most this file may be (see `outputByteCap`). */
  maxBytes: number | null;
  onProgress: ProgressListener | undefined;
}

/** The output is bigger than any dub of its source can be: stopped, nothing kept. */
export function tooBig(body: PartBody, said: boolean): ApiError {
  return new ApiError(
    'too-big',
    `the output at ${redact(body.url)} ${said ? `is ${mib(body.expected ?? 0)}` : 'kept coming'}, more than the ${mib(body.maxBytes ?? 0)} a dub of this source can be; Dubdesk stopped it and kept nothing`,
    body.status,
  );
}

/**
 * Writes `body` into its part file and resolves once the file has exactly the length the server promised.
 * Each chunk is on disk before the next is read: when the line drops, every byte received is kept (and
 * counts as progress), and a disk error (ENOSPC…) is the disk's, never the service's.
 */
export async function writePart(
  body: PartBody,
  files: PartFiles,
  limits: HttpLimits,
  cap: RateCap = new RateCap(),
): Promise<Downloaded> {
  const { part, stream, append, earlier } = body;
  const held = holdWhileOpening(stream);
  // Started over: the earlier part (Dubdesk's own, checked before) goes, and a new one is made in its place.
  if (!append && earlier.identity) await rm(part, { force: true });
  const out = await files.open(part, append, earlier.identity).catch((e: NodeJS.ErrnoException) => {
    stream.destroy();
    if (e instanceof NameTakenError) throw e;
    throw new PartWriteError(e, body.expected === null ? null : body.expected - (append ? earlier.have : 0));
  });
  const copy = new PartCopy(body, out, cap);
  // Set once the part file is open: a folder that refuses it leaves no timer to hold the process.
  const floor = slowFloor(body, limits, copy);
  try {
    await copy.all(held());
  } catch (e) {
    if (e instanceof PartWriteError) throw e;
    await out.close();
    if (copy.stop) {
      if (copy.stop.kind === 'too-big') await rm(part, { force: true });
      throw copy.stop;
    }
    const now = await sizeOf(part);
    throw errorFromFailure(e, body.url, true, { bytes: copy.received, progressed: now > earlier.have });
  } finally {
    clearInterval(floor);
    await out.close().catch(() => {});
  }
  return lengthChecked(body, copy, out.identity);
}

/** The bytes of one transfer going into its part: how many, their hash, the file's first bytes. */
class PartCopy {
  written: number;
  /** What this process wrote on top of what was there. */
  received = 0;
  readonly start: number;
  readonly hash: Hash;
  private readonly heads: Buffer[] = [];
  private headBytes = 0;
  /** Why the transfer was stopped from this side (too slow, too big). */
  stop: ApiError | null = null;

  constructor(
    private readonly body: PartBody,
    private readonly out: PartFile,
    private readonly cap: RateCap,
  ) {
    this.written = body.append ? body.earlier.have : 0;
    this.start = this.written;
    this.hash = body.append && body.earlier.kept ? body.earlier.kept : createHash('sha256');
  }

  async all(chunks: AsyncIterable<Buffer>): Promise<void> {
    const { body } = this;
    for await (const chunk of chunks) {
      // Capped, the body is read no faster than the rate: the socket fills and TCP slows the sender.
      if (this.cap.capped) await this.cap.take(chunk.length);
      await this.write(chunk);
      this.keepHead(chunk);
      this.written += chunk.length;
      this.received += chunk.length;
      if (body.maxBytes !== null && this.written > body.maxBytes) {
        this.stopWith(tooBig(body, false));
        break;
      }
      body.onProgress?.(this.written, body.expected);
    }
    if (this.stop) throw this.stop;
  }

  stopWith(why: ApiError): void {
    this.stop = why;
    this.body.stream.destroy(why);
  }

  /** The file's first bytes, as written from its start; null when this transfer appended. */
  head(): Buffer | null {
    return this.body.append ? null : Buffer.concat(this.heads);
  }

  private async write(chunk: Buffer): Promise<void> {
    try {
      await this.out.write(chunk);
      this.hash.update(chunk);
    } catch (e) {
      this.body.stream.destroy();
      await this.out.close().catch(() => {});
      const kept = await sizeOf(this.body.part);
      const { expected } = this.body;
      throw new PartWriteError(e as NodeJS.ErrnoException, expected === null ? null : expected - kept);
    }
  }

  private keepHead(chunk: Buffer): void {
    if (this.body.append || this.headBytes >= HEAD_BYTES) return;
    const take = chunk.subarray(0, HEAD_BYTES - this.headBytes);
    this.heads.push(Buffer.from(take));
    this.headBytes += take.length;
  }
}

/** The floor: a window that brought less than the minimum ends the transfer (see HttpLimits). */
function slowFloor(body: PartBody, limits: HttpLimits, copy: PartCopy): NodeJS.Timeout {
  let windowStart = copy.received;
  return setInterval(() => {
    const got = copy.received - windowStart;
    windowStart = copy.received;
    if (got >= limits.minDownloadBytes) return;
    copy.stopWith(
      new ApiError(
        'timeout',
        `download of ${redact(body.url)} is too slow (${got} bytes in ${Math.round(limits.progressWindowMs / 1000)} s, the least is ${limits.minDownloadBytes}); it will be tried again`,
        body.status,
        null,
        // Not progress that earns unlimited retries: a trickle would otherwise be waited for for days.
        { bytes: copy.received, progressed: false },
      ),
    );
  }, limits.progressWindowMs);
}

/** The part as written, when it has the length promised: longer starts over, shorter resumes. */
async function lengthChecked(body: PartBody, copy: PartCopy, identity: FileIdentity): Promise<Downloaded> {
  const { url, expected, status } = body;
  const bytes = copy.start + copy.received;
  if (expected !== null && bytes > expected) {
    await rm(body.part, { force: true });
    throw new ApiError(
      'protocol',
      `download of ${redact(url)} is longer than promised; it will start over`,
      status,
    );
  }
  if (expected !== null && bytes < expected)
    throw new ApiError(
      'truncated',
      `download of ${redact(url)} was cut short (${bytes} of ${expected} bytes); it will resume`,
      status,
      null,
      { bytes: copy.received, progressed: bytes > body.earlier.have },
    );
  const { contentType } = body;
  return { bytes, contentType, head: copy.head(), sha256: copy.hash.digest('hex'), identity };
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

/**
 * Reads the body while the part file opens. A connection that drops meanwhile takes with it whatever was
 * received but not yet read (a failed stream discards its buffer): read, it is kept and counts.
 * Returns the body from its start: what was held, then the rest.
 */
function holdWhileOpening(body: Readable): () => AsyncGenerator<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const hold = (chunk: Buffer) => {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes >= HOLD_BYTES) body.pause();
  };
  body.on('data', hold);
  return async function* () {
    body.off('data', hold);
    body.pause();
    yield* chunks.splice(0);
    yield* body as AsyncIterable<Buffer>;
  };
}

import { createHash, type Hash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  createOwnFile,
  entryAt,
  identityOf,
  mayBeOwn,
  NameTakenError,
  openOwnFile,
  type FileIdentity,
} from '../files/own-file';
import { errorFromFailure, errorFromResponse } from './classify';
import { ApiError, redact } from './errors';
import { DEFAULT_LIMITS, withLimits, type HttpLimits } from './limits';
import { httpUrl, isHttp, redirectTarget } from './links';
import { planDownload } from './ranges';
import type { Secrets } from './scrub';
import { readCapped, timeoutsFor, Transport, utf8, type ProgressListener } from './transport';

const mib = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

async function sizeOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => s.size,
    () => 0,
  );
}

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

/** How much of a download's start is kept in memory for sniffing (see outputs/sniff). */
export const HEAD_BYTES = 64;

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

export const diskPartFiles: PartFiles = {
  async open(path, append, expected) {
    const { fh, identity } = append ? await openOwnFile(path, 'append', expected) : await createOwnFile(path);
    return {
      identity,
      async write(chunk) {
        // A nearly full disk takes part of a chunk: write the rest, so that its error is the next one.
        for (let at = 0; at < chunk.length;) at += (await fh.write(chunk, at)).bytesWritten;
      },
      close: () => fh.close(),
    };
  },
};

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

/** Bytes read ahead while the part file opens: at most this many, then the line waits. */
const HOLD_BYTES = 4 * 1024 * 1024;

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

/**
 * Output downloads from pre-signed links. They carry no API key at all, so they may follow storage's
 * redirects anywhere http(s); bytes are written exactly as sent (no decompression), with idle limits only
 * on the body: a big file on a slow line takes as long as it takes.
 */
export class Downloads {
  readonly limits: HttpLimits;
  private readonly transport: Transport;

  constructor(
    limits?: Partial<HttpLimits>,
    private readonly files: PartFiles = diskPartFiles,
    /** Keys to scrub from storage's error answers. */
    private readonly secrets: Secrets = () => [],
  ) {
    this.limits = withLimits(DEFAULT_LIMITS, limits);
    this.transport = new Transport(timeoutsFor('download', this.limits), { 'user-agent': 'Dubdesk' });
  }

  /**
   * Downloads a signed link into `part`, resuming with a Range request from whatever `part` already holds.
   * Resolves only when the file has exactly the length the server promised. A cut transfer rejects as
   * `truncated` or `timeout` (with `progressed` when the part file grew: resume later), an expired link as
   * `forbidden` (fetch fresh links, then resume).
   */
  async toPart(
    url: string,
    part: string,
    signal?: AbortSignal,
    onProgress?: ProgressListener,
    /** The caller has just made sure no `part` exists (a name it picked): no need to look for one. */
    fresh = false,
    /** The most this file may be (see `outputByteCap`): beyond it the transfer stops and the part is removed. */
    maxBytes: number | null = null,
  ): Promise<Downloaded> {
    const target = httpUrl(url, 'the output link');
    // A part already there is resumed only when it is Dubdesk's own (someone may have planted a link there).
    const earlier = fresh ? null : await entryAt(part);
    if (earlier && !mayBeOwn(earlier)) throw new NameTakenError(part, 'not the part file Dubdesk left');
    const have = earlier?.size ?? 0;
    const mine = earlier ? identityOf(earlier) : undefined;
    // What a resume keeps is hashed before the request, so the rest is hashed as it arrives.
    const kept = have > 0 ? await hashOf(part, have, mine, signal) : null;
    const response = await this.transport.open(target, url, {
      method: 'GET',
      headers: have > 0 ? { range: `bytes=${have}-` } : undefined,
      signal,
      // Storage's redirects are followed anywhere http(s): the links carry no key.
      follow: isHttp,
    });
    const { status, body: stream } = response;
    const type = response.headers['content-type'];
    const contentType = (Array.isArray(type) ? type[0] : type)?.split(';')[0]?.trim() || null;

    if (status >= 300 && status < 400) {
      stream.destroy();
      const to = redirectTarget(response.headers.location, response.url.href);
      if (to && !isHttp(to))
        throw new ApiError(
          'bad-link',
          `the output link redirected to a ${to.protocol} link; Dubdesk does not follow it`,
          status,
        );
      throw new ApiError(
        'protocol',
        `HTTP ${status} from ${redact(response.url.href)} without a usable Location`,
        status,
      );
    }
    const plan = planDownload(status, have, response.headers);
    if (plan.action === 'error') {
      const { body } = await readCapped(stream, this.limits.maxErrorBodyBytes, url).catch(() => ({
        body: Buffer.alloc(0),
      }));
      throw errorFromResponse(status, utf8(body), url, this.secrets());
    }
    if (plan.action === 'complete') {
      stream.destroy();
      // Only a part with bytes in it can be complete (`planDownload`).
      if (!mine) throw new ApiError('protocol', `${redact(url)} said an empty download was complete`);
      return {
        bytes: have,
        contentType,
        head: null,
        sha256: (kept ?? createHash('sha256')).digest('hex'),
        identity: mine,
      };
    }
    if (plan.action === 'restart') {
      stream.destroy();
      await rm(part, { force: true });
      throw new ApiError('protocol', `download of ${redact(url)}: ${plan.why}; it will start over`, status);
    }

    const { append, expected } = plan;
    const tooBig = (said: boolean) =>
      new ApiError(
        'too-big',
        `the output at ${redact(url)} ${said ? `is ${mib(expected ?? 0)}` : 'kept coming'}, more than the ${mib(maxBytes ?? 0)} a dub of this source can be; Dubdesk stopped it and kept nothing`,
        status,
      );
    if (maxBytes !== null && expected !== null && expected > maxBytes) {
      stream.destroy();
      await rm(part, { force: true });
      throw tooBig(true);
    }
    let written = append ? have : 0;
    const start = written;
    const hash = append && kept ? kept : createHash('sha256');
    let received = 0;
    const heads: Buffer[] = [];
    let headBytes = 0;
    // Each chunk is on disk before the next is read: when the line drops, every byte received is kept
    // (and counts as progress), and a disk error (ENOSPC…) is the disk's, never the service's.
    const held = holdWhileOpening(stream);
    // Started over: the earlier part (Dubdesk's own, checked above) goes, and a new one is made in its place.
    if (!append && earlier) await rm(part, { force: true });
    const out = await this.files.open(part, append, mine).catch((e: NodeJS.ErrnoException) => {
      stream.destroy();
      if (e instanceof NameTakenError) throw e;
      throw new PartWriteError(e, expected === null ? null : expected - written);
    });
    // The floor: a window that brought less than the minimum ends the transfer (see HttpLimits). Set once
    // the part file is open: a folder that refuses it leaves no timer to hold the process.
    let stop: ApiError | null = null;
    let windowStart = received;
    const floor = setInterval(() => {
      const got = received - windowStart;
      windowStart = received;
      if (got >= this.limits.minDownloadBytes) return;
      stop = new ApiError(
        'timeout',
        `download of ${redact(url)} is too slow (${got} bytes in ${Math.round(this.limits.progressWindowMs / 1000)} s, the least is ${this.limits.minDownloadBytes}); it will be tried again`,
        status,
        null,
        // Not progress that earns unlimited retries: a trickle would otherwise be waited for for days.
        { bytes: received, progressed: false },
      );
      stream.destroy(stop);
    }, this.limits.progressWindowMs);
    try {
      for await (const chunk of held()) {
        try {
          await out.write(chunk);
          hash.update(chunk);
        } catch (e) {
          stream.destroy();
          await out.close().catch(() => {});
          const kept = await sizeOf(part);
          throw new PartWriteError(e as NodeJS.ErrnoException, expected === null ? null : expected - kept);
        }
        if (!append && headBytes < HEAD_BYTES) {
          const take = chunk.subarray(0, HEAD_BYTES - headBytes);
          heads.push(Buffer.from(take));
          headBytes += take.length;
        }
        written += chunk.length;
        received += chunk.length;
        if (maxBytes !== null && written > maxBytes) {
          stop = tooBig(false);
          stream.destroy(stop);
          break;
        }
        onProgress?.(written, expected);
      }
      if (stop) throw stop;
    } catch (e) {
      if (e instanceof PartWriteError) throw e;
      await out.close();
      if (stop) {
        if ((stop as ApiError).kind === 'too-big') await rm(part, { force: true });
        throw stop;
      }
      const now = await sizeOf(part);
      throw errorFromFailure(e, url, true, { bytes: received, progressed: now > have });
    } finally {
      clearInterval(floor);
      await out.close().catch(() => {});
    }
    // What this process wrote on top of what was there; no second look at the file needed.
    const bytes = start + received;
    if (expected !== null && bytes > expected) {
      await rm(part, { force: true });
      throw new ApiError(
        'protocol',
        `download of ${redact(url)} is longer than promised; it will start over`,
        status,
      );
    }
    if (expected !== null && bytes < expected) {
      throw new ApiError(
        'truncated',
        `download of ${redact(url)} was cut short (${bytes} of ${expected} bytes); it will resume`,
        status,
        null,
        { bytes: received, progressed: bytes > have },
      );
    }
    return {
      bytes,
      contentType,
      head: append ? null : Buffer.concat(heads),
      sha256: hash.digest('hex'),
      identity: out.identity,
    };
  }
}

/** A hash of the first `bytes` of Dubdesk's own `path`, to be continued with what follows them. */
async function hashOf(
  path: string,
  bytes: number,
  expected: FileIdentity | undefined,
  signal?: AbortSignal,
): Promise<Hash> {
  const hash = createHash('sha256');
  const { fh } = await openOwnFile(path, 'read', expected);
  const stream = fh.createReadStream({ start: 0, end: bytes - 1, highWaterMark: 1024 * 1024, signal });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash;
}

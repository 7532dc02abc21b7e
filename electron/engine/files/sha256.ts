import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/** The most read at once: a large file goes through one buffer of this size. */
const CHUNK = 1024 * 1024;

/**
 * The SHA-256 (hex) of an open file's bytes, from where the handle is to its end. `size` (as last seen)
 * sizes the one buffer read into: a read stream allocated 1 MiB per file, and its machinery cost more than
 * the reads of a small file. `signal` stops it between two reads.
 */
export async function sha256Of(fh: FileHandle, size: number, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(size + 1, CHUNK)));
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await fh.read(buf, 0, buf.length, null);
    if (bytesRead === 0) break;
    hash.update(buf.subarray(0, bytesRead));
  }
  return hash.digest('hex');
}

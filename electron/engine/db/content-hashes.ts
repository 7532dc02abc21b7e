import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import type { Db } from './types';

/** The most read at once: a large file goes through one buffer of this size. */
const CHUNK = 1024 * 1024;

const Cached = z.object({ size: z.number().int(), mtime_ms: z.number().int(), hash: z.string() });

/**
 * What a file is: the SHA-256 of its bytes, read once and kept by path, size and modification time, so a
 * file that did not change is never read again. One identity for a source everywhere (add, watch, the app):
 * `touch` does not make it new, and a copy under another name is the same source.
 */
export class ContentHashes {
  private readonly get;
  private readonly put;

  constructor(db: Db) {
    this.get = db.prepare<[string]>(`SELECT size, mtime_ms, hash FROM content_hashes WHERE path = ?`);
    this.put = db.prepare<[string, number, number, string]>(
      `INSERT OR REPLACE INTO content_hashes (path, size, mtime_ms, hash) VALUES (?, ?, ?, ?)`,
    );
  }

  /** The hash of a file written just now, known without reading it (hashed as its bytes were written). */
  remember(path: string, size: number, mtimeMs: number, hash: string): void {
    this.put.run(path, size, Math.round(mtimeMs), hash);
  }

  /** The hash of `path` as it is now (`size` and `mtimeMs` as just read); read only when not known. */
  async of(path: string, size: number, mtimeMs: number): Promise<string> {
    const known = this.known(path, size, mtimeMs);
    if (known !== null) return known;
    const digest = await hashFile(path, size);
    this.remember(path, size, mtimeMs, digest);
    return digest;
  }

  /** The hash recorded for `path` at this size and modification time, if any. */
  known(path: string, size: number, mtimeMs: number): string | null {
    const cached = Cached.safeParse(this.get.get(path));
    return cached.success && cached.data.size === size && cached.data.mtime_ms === Math.round(mtimeMs)
      ? cached.data.hash
      : null;
  }
}

/** The SHA-256 of a file's bytes, read to its end (`size`, as last seen, sizes the buffer). */
export async function hashFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(path, 'r');
  try {
    // One buffer, the file's size up to CHUNK, read into until the end: a read stream allocated 1 MiB
    // per file, and its machinery cost more than the reads of a small file.
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(size + 1, CHUNK)));
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}

import { open } from 'node:fs/promises';
import { z } from 'zod';
import { sha256Of } from '../files/sha256';
import type { Db } from './types';

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
    const digest = await sha256OfFile(path, size);
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

/** The SHA-256 of the file at `path`, read to its end (`size`, as last seen, sizes the buffer). */
export async function sha256OfFile(path: string, size: number): Promise<string> {
  const fh = await open(path, 'r');
  try {
    return await sha256Of(fh, size);
  } finally {
    await fh.close();
  }
}

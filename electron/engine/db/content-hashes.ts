import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { z } from 'zod';
import { statement } from './statements';

const Cached = z.object({ size: z.number().int(), mtime_ms: z.number().int(), hash: z.string() });

/**
 * What a file is: the SHA-256 of its bytes, read once and kept by path, size and modification time, so a
 * file that did not change is never read again. One identity for a source everywhere (add, watch, the app):
 * `touch` does not make it new, and a copy under another name is the same source.
 */
export class ContentHashes {
  private readonly get: Database.Statement<[string]>;
  private readonly put: Database.Statement<[string, number, number, string]>;

  constructor(db: Database.Database) {
    this.get = statement(db, `SELECT size, mtime_ms, hash FROM content_hashes WHERE path = ?`);
    this.put = statement(
      db,
      `INSERT OR REPLACE INTO content_hashes (path, size, mtime_ms, hash) VALUES (?, ?, ?, ?)`,
    );
  }

  /** The hash of a file written just now, known without reading it (hashed as its bytes were written). */
  remember(path: string, size: number, mtimeMs: number, hash: string): void {
    this.put.run(path, size, Math.round(mtimeMs), hash);
  }

  /** The hash of `path` as it is now (`size` and `mtimeMs` as just read); read only when not known. */
  async of(path: string, size: number, mtimeMs: number): Promise<string> {
    const mtime = Math.round(mtimeMs);
    const cached = Cached.safeParse(this.get.get(path));
    if (cached.success && cached.data.size === size && cached.data.mtime_ms === mtime)
      return cached.data.hash;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }))
      hash.update(chunk as Buffer);
    const digest = hash.digest('hex');
    this.put.run(path, size, mtime, digest);
    return digest;
  }
}

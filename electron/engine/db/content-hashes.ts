import { open } from 'node:fs/promises';
import { setImmediate as turn } from 'node:timers/promises';
import { z } from 'zod';
import { mapInTurns } from '../files/in-turns';
import { sha256Of } from '../files/sha256';
import { transactionsOf } from './transactions';
import type { Db } from './types';

const Cached = z.object({ size: z.number().int(), mtime_ms: z.number().int(), hash: z.string() });

/** A file to identify, as just seen; `read`: its hash when its bytes were read whole a moment ago (probing). */
export interface FileSeen {
  path: string;
  size: number;
  mtimeMs: number;
  read?: string | null;
}

/** Files looked up or remembered in one transaction: a commit per file was 2,000 commits for 2,000 files. */
const AT_ONCE = 500;

/** `fn` over runs of `AT_ONCE` items, the event loop's turn between two. */
async function inRuns<T>(items: readonly T[], fn: (run: readonly T[]) => void): Promise<void> {
  for (let at = 0; at < items.length; at += AT_ONCE) {
    if (at > 0) await turn();
    fn(items.slice(at, at + AT_ONCE));
  }
}

/**
 * What a file is: the SHA-256 of its bytes, read once and kept by path, size and modification time, so a
 * file that did not change is never read again. One identity for a source everywhere (add, watch, the app):
 * `touch` does not make it new, and a copy under another name is the same source.
 */
export class ContentHashes {
  private readonly get;
  private readonly put;

  constructor(private readonly db: Db) {
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

  /**
   * `of` for many files: what is known looked up and what is found remembered a few hundred files per
   * transaction (the event loop's turn between), the rest read `limit` at once. Each file's hash by path.
   */
  async ofMany(files: readonly FileSeen[], limit: number): Promise<Map<string, string>> {
    const t = transactionsOf(this.db);
    const hashes = new Map<string, string>();
    const found: [string, number, number, string][] = [];
    const unread: FileSeen[] = [];
    await inRuns(files, (run) =>
      t.read(() => {
        for (const f of run) {
          const cached = this.known(f.path, f.size, f.mtimeMs);
          const hash = f.read ?? cached;
          if (hash === null) unread.push(f);
          else {
            if (hash !== cached) found.push([f.path, f.size, Math.round(f.mtimeMs), hash]);
            hashes.set(f.path, hash);
          }
        }
      }),
    );
    await mapInTurns(unread, limit, async (f) => {
      const hash = await sha256OfFile(f.path, f.size);
      found.push([f.path, f.size, Math.round(f.mtimeMs), hash]);
      hashes.set(f.path, hash);
    });
    await inRuns(found, (run) => t.tx(() => run.forEach((row) => this.put.run(...row))));
    return hashes;
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

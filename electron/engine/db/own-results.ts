import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { ContentHashes } from './content-hashes';
import { sha256OfFile } from './content-hashes';
import { fileIdFrom, fileIdOf } from './own-files';
import type { ResultsJournal } from './results-journal';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

const Found = z.object({ hash: z.string(), path: z.string() });

/** A result as saved on disk: what its records hold. */
export interface SavedResult {
  fileId: string;
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
}

/**
 * Dubdesk's own results: by what they are on disk (device and inode, `own_files`: known under any path, an
 * output folder reached through a symlink, a watched folder added under another path) and by content
 * (`outputs.content_hash`: a copy of a result, `cp out/s6.de.mp4 in/`, is a new inode but the result's
 * bytes), so a dub of a dub is never taken, nor paid for, unasked.
 */
export class OwnResults {
  private readonly q;
  private readonly t: Transactions;

  constructor(
    db: Db,
    private readonly hashes: ContentHashes,
    /** The same results in a file beside the database: what a database restored from a backup forgot. */
    private readonly journal: ResultsJournal,
  ) {
    this.t = transactionsOf(db);
    this.q = {
      own: db.prepare(`INSERT OR REPLACE INTO own_files (file_id, path) VALUES (?, ?)`),
      isOwn: db.prepare(`SELECT 1 FROM own_files WHERE file_id = ?`),
      outputHash: db.prepare(`UPDATE outputs SET content_hash = ? WHERE path = ?`),
      isSource: db.prepare(`SELECT 1 FROM jobs WHERE source_hash = ? LIMIT 1`),
      withContents: db.prepare(
        `SELECT content_hash AS hash, path, min(rowid) FROM outputs
           WHERE content_hash IN (SELECT value FROM json_each(?)) AND done = 1
             AND NOT EXISTS (SELECT 1 FROM jobs WHERE source_hash = outputs.content_hash)
           GROUP BY content_hash`,
      ),
    };
  }

  /**
   * A result just saved, from one look at it and in one transaction: its file id and its content. `hash`:
   * taken as it downloaded (then the file is not read again).
   */
  async recordResult(path: string, hash?: string): Promise<void> {
    const saved = await this.lookAtResult(path, hash);
    if (saved) this.t.write(() => this.writeResult(saved));
  }

  /**
   * A result just saved, looked at once: what recording it writes (`writeResult`, which may wait for the
   * caller's next commit). The file beside the database hears of it at once: until that commit, it alone
   * knows the file for a result. Null when no file is there. `seen`: the look at it just taken (`lstat` of
   * the plain file it is, see `settleWritten`), not taken again.
   */
  async lookAtResult(path: string, hash?: string, seen?: BigIntStats): Promise<SavedResult | null> {
    const info = seen ?? (await stat(path, { bigint: true }).catch(() => null));
    if (!info?.isFile()) return null;
    const size = Number(info.size);
    // The time as a plain stat gives it (what every other look at a file records): milliseconds and fraction.
    const mtimeMs = Number(info.mtimeNs / 1_000_000n) + Number(info.mtimeNs % 1_000_000n) / 1e6;
    const content = hash ?? this.hashes.known(path, size, mtimeMs) ?? (await sha256OfFile(path, size));
    this.journal.record({ path, hash: content, size, mtimeMs });
    return { fileId: fileIdFrom(info), path, size, mtimeMs, hash: content };
  }

  /** A result's records in the database, in the transaction under way (its output's row written first). */
  writeResult(saved: SavedResult): void {
    this.q.own.run(saved.fileId, saved.path);
    this.hashes.remember(saved.path, saved.size, saved.mtimeMs, saved.hash);
    this.q.outputHash.run(saved.hash, saved.path);
  }

  /** A file Dubdesk wrote (moved aside, linked from another job's results): known as its own by its id. */
  async recordOwnFile(path: string): Promise<void> {
    const id = await fileIdOf(path);
    if (id) this.q.own.run(id, path);
  }

  /** The paths among `paths` that are one of Dubdesk's results, under whatever name they are reached. */
  async ownFilesAmong(paths: readonly string[]): Promise<Set<string>> {
    const own = this.journal.savedAmong(paths);
    for (const path of paths) {
      const id = await fileIdOf(path);
      if (!own.has(path) && id && this.q.isOwn.get(id) !== undefined) own.add(path);
    }
    return own;
  }

  /**
   * The result (its path now) whose content is `hash`, if Dubdesk saved one. Not when that content was taken
   * as a source too (a result dubbed on purpose, or a service that sent the upload back as it was): it is a
   * source then, and paying once for a source's content is the job of the usual checks (copies, duplicates).
   */
  resultWithContent(hash: string): string | null {
    return this.resultsWithContents([hash]).get(hash) ?? null;
  }

  /** `resultWithContent` for many contents in one query: content -> the first result recorded with it. */
  resultsWithContents(hashes: readonly string[]): Map<string, string> {
    if (hashes.length === 0) return new Map();
    const rows = Found.array().parse(this.q.withContents.all(JSON.stringify(hashes)));
    const found = new Map(rows.map((r) => [r.hash, r.path]));
    // What the database forgot (restored from an older backup): rare, so asked one by one.
    const forgotten = this.journal.withContents(hashes.filter((h) => !found.has(h)));
    for (const [hash, path] of forgotten) if (!this.q.isSource.get(hash)) found.set(hash, path);
    return found;
  }

  /** The paths among `paths` saved as results, as the file beside the database remembers them. */
  savedAmong(paths: readonly string[]): Set<string> {
    return this.journal.savedAmong(paths);
  }
}

import { appendFileSync, closeSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** Beside the database, outside it. */
export const JOURNAL_FILE = 'results.jsonl';

const Entry = z.object({
  path: z.string().min(1),
  hash: z.string().min(1),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
});
type Entry = z.infer<typeof Entry>;

/** What of the file has been read: which file (a compaction replaces it) and up to which byte (a line's end). */
interface ReadSoFar {
  dev: number;
  ino: number;
  offset: number;
  lines: number;
}

/**
 * Every result Dubdesk saved, one JSON line each, in a file beside the database. A database restored from an
 * older backup (`restore-db`) forgets the results written since; without this memory a folder added or
 * watched again would take them for sources, a dub of a dub paid for. Read when first asked, then only what
 * was appended since (by this process or another: a long-lived window hears what a command line saved), or
 * whole again when the file shrank or was replaced; a line is added as each result is saved. A path counts
 * only while its file is the one recorded (size and modification time): a name reused for another file is
 * that file.
 */
export class ResultsJournal {
  private byPath = new Map<string, Entry>();
  private byHash = new Map<string, string>();
  private read: ReadSoFar | null = null;

  /** `file`: null for a database in memory (nothing to forget, nothing written). */
  constructor(private readonly file: string | null) {}

  static besideDatabase(dbFile: string): ResultsJournal {
    return new ResultsJournal(
      dbFile === ':memory:' || dbFile === '' ? null : join(dirname(dbFile), JOURNAL_FILE),
    );
  }

  record(entry: Entry): void {
    if (!this.file) return;
    try {
      // The user's alone, as the database and its backups are: it names their files.
      appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      /* the database keeps its own record; this one only helps after a restore */
    }
    // Read back with the rest of the tail when next asked; known from now on all the same.
    this.remember(entry);
  }

  /** The paths among these that are results Dubdesk saved, their files unchanged since. */
  savedAmong(paths: readonly string[]): Set<string> {
    const saved = new Set<string>();
    this.catchUp();
    for (const path of paths) {
      const e = this.byPath.get(path);
      if (e && unchanged(e)) saved.add(path);
    }
    return saved;
  }

  /** Content -> a result saved with it, for these contents. */
  withContents(hashes: readonly string[]): Map<string, string> {
    this.catchUp();
    const found = new Map<string, string>();
    for (const h of hashes) {
      const path = this.byHash.get(h);
      if (path) found.set(h, path);
    }
    return found;
  }

  /** Reads what the file gained since the last look, or all of it when it is another file or shorter. */
  private catchUp(): void {
    if (!this.file) return;
    let info: { dev: number; ino: number; size: number };
    try {
      info = statSync(this.file);
    } catch {
      this.read = null; // none yet, or removed: one made later is read whole
      return;
    }
    const r = this.read;
    if (!r || r.dev !== info.dev || r.ino !== info.ino || info.size < r.offset) {
      this.byPath = new Map();
      this.byHash = new Map();
      this.read = { dev: info.dev, ino: info.ino, offset: 0, lines: 0 };
    }
    const from = this.read as ReadSoFar;
    if (info.size === from.offset) return;
    const tail = readFrom(this.file, from.offset, info.size - from.offset);
    // A line still being written (no newline yet) is read with the rest next time.
    const whole = tail.lastIndexOf(0x0a) + 1;
    from.offset += whole;
    for (const line of tail.subarray(0, whole).toString('utf8').split('\n')) {
      if (!line) continue;
      from.lines++;
      const parsed = Entry.safeParse(safeJson(line));
      if (parsed.success) this.remember(parsed.data);
    }
    // A result saved again under the same name (a dub redone) leaves old lines: the file keeps the last.
    if (from.lines > 2 * this.byPath.size + 1000) this.rewrite();
  }

  private remember(e: Entry): void {
    this.byPath.set(e.path, e);
    this.byHash.set(e.hash, e.path);
  }

  private rewrite(): void {
    if (!this.file) return;
    const text = [...this.byPath.values()].map((e) => `${JSON.stringify(e)}\n`).join('');
    try {
      writeFileSync(`${this.file}.part`, text, { mode: 0o600 });
      renameSync(`${this.file}.part`, this.file);
      const info = statSync(this.file);
      this.read = { dev: info.dev, ino: info.ino, offset: Buffer.byteLength(text), lines: this.byPath.size };
    } catch {
      /* kept as it was */
    }
  }
}

/** `length` bytes of `file` from `offset` (fewer if it is shorter by now). */
function readFrom(file: string, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buffer, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

function unchanged(e: Entry): boolean {
  try {
    const info = statSync(e.path);
    return info.isFile() && info.size === e.size && Math.abs(info.mtimeMs - e.mtimeMs) < 1;
  } catch {
    return false;
  }
}

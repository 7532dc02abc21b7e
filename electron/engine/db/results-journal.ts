import { appendFileSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Every result Dubdesk saved, one JSON line each, in a file beside the database. A database restored from an
 * older backup (`restore-db`) forgets the results written since; without this memory a folder added or
 * watched again would take them for sources, a dub of a dub paid for. Read once, when first asked; a line
 * is added as each result is saved. A path counts only while its file is the one recorded (size and
 * modification time): a name reused for another file is that file.
 */
export class ResultsJournal {
  private byPath: Map<string, Entry> | null = null;
  private byHash: Map<string, string> | null = null;

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
    if (this.byPath) this.remember(entry);
  }

  /** The paths among these that are results Dubdesk saved, their files unchanged since. */
  savedAmong(paths: readonly string[]): Set<string> {
    const saved = new Set<string>();
    const byPath = this.load();
    for (const path of paths) {
      const e = byPath.get(path);
      if (e && unchanged(e)) saved.add(path);
    }
    return saved;
  }

  /** Content -> a result saved with it, for these contents. */
  withContents(hashes: readonly string[]): Map<string, string> {
    this.load();
    const found = new Map<string, string>();
    for (const h of hashes) {
      const path = this.byHash?.get(h);
      if (path) found.set(h, path);
    }
    return found;
  }

  private load(): Map<string, Entry> {
    if (this.byPath) return this.byPath;
    this.byPath = new Map();
    this.byHash = new Map();
    let lines: string[] = [];
    try {
      if (this.file) lines = readFileSync(this.file, 'utf8').split('\n');
    } catch {
      /* none yet */
    }
    for (const line of lines) {
      const parsed = line ? Entry.safeParse(safeJson(line)) : null;
      if (parsed?.success) this.remember(parsed.data);
    }
    // A result saved again under the same name (a dub redone) leaves old lines: the file keeps the last.
    if (this.file && lines.length > 2 * this.byPath.size + 1000) this.rewrite();
    return this.byPath;
  }

  private remember(e: Entry): void {
    this.byPath?.set(e.path, e);
    this.byHash?.set(e.hash, e.path);
  }

  private rewrite(): void {
    if (!this.file || !this.byPath) return;
    const text = [...this.byPath.values()].map((e) => `${JSON.stringify(e)}\n`).join('');
    try {
      writeFileSync(`${this.file}.part`, text, { mode: 0o600 });
      renameSync(`${this.file}.part`, this.file);
    } catch {
      /* kept as it was */
    }
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

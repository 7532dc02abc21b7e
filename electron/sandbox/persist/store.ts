import { readdir, readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { z } from 'zod';
import type { SandboxAccount, SandboxDub, SandboxState, StateListener } from '../state';
import { makeFolder } from '../make-folder';
import { isTempFile, writeAtomic } from './atomic';
import { SandboxStateError } from './errors';
import { AccountsFile, DubRecord, MetaFile, STATE_FORMAT } from './schema';

const META = 'meta.json';
const ACCOUNTS = 'accounts.json';
const DUBS = 'dubs';

export interface LoadedState {
  meta: MetaFile | null;
  accounts: AccountsFile['accounts'];
  dubs: DubRecord[];
}

function damaged(dir: string, file: string, reason: string): SandboxStateError {
  return new SandboxStateError(
    `The sandbox state file ${file} is damaged (${reason}). Move it out of the way to keep what the other ` +
      `files hold, or delete the state directory ${dir} to start afresh.`,
  );
}

async function readRecord<S extends z.ZodType>(
  dir: string,
  file: string,
  schema: S,
): Promise<z.infer<S> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SandboxStateError(`Cannot read the sandbox state file ${file}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw damaged(dir, file, 'not valid JSON');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > STATE_FORMAT) {
    throw new SandboxStateError(
      `The sandbox state file ${file} was written by a newer Dubdesk (format ${format}); update Dubdesk, or use another state directory.`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw damaged(dir, file, `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Reads and checks everything in a state directory (made if missing); never throws anything but a clear error. */
export async function loadStateDir(dir: string): Promise<LoadedState> {
  try {
    await makeFolder(join(dir, DUBS));
  } catch (e) {
    throw new SandboxStateError(`Cannot create the sandbox state directory ${dir}: ${(e as Error).message}`);
  }
  const meta = await readRecord(dir, join(dir, META), MetaFile);
  const accounts = (await readRecord(dir, join(dir, ACCOUNTS), AccountsFile))?.accounts ?? [];
  const dubs: DubRecord[] = [];
  for (const name of await readdir(join(dir, DUBS))) {
    const file = join(dir, DUBS, name);
    if (isTempFile(name)) await rm(file, { force: true });
    else if (name.endsWith('.json')) {
      const dub = await readRecord(dir, file, DubRecord);
      if (dub) dubs.push(dub);
    }
  }
  for (const name of await readdir(dir)) if (isTempFile(name)) await rm(join(dir, name), { force: true });
  return { meta, accounts, dubs };
}

const inside = (dir: string, path: string) => (path && !isAbsolute(path) ? resolve(dir, path) : path);
const portable = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return path && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

/**
 * Uploads no dub refers to: the rest of a v2 upload cut off by a kill, or a side file of a broken PUT.
 * Removed at load, so a state directory does not grow with crashes.
 */
export async function removeOrphanUploads(dir: string, loaded: LoadedState): Promise<number> {
  const uploads = join(dir, 'uploads');
  const referenced = new Set(loaded.dubs.map((d) => inside(dir, d.uploadPath)));
  let removed = 0;
  for (const name of await readdir(uploads).catch(() => [])) {
    const path = join(uploads, name);
    if (!referenced.has(path)) {
      await rm(path, { force: true, recursive: true });
      removed++;
    }
  }
  return removed;
}

/** Puts what was read back into `state`; balances are their base less the charges kept with the dubs. */
export function restoreInto(state: SandboxState, loaded: LoadedState, dir: string): void {
  for (const r of loaded.dubs) {
    const { format: _format, ...fields } = r;
    const artifacts = r.artifacts
      ? Object.fromEntries(
          Object.entries(r.artifacts).map(([k, a]) => [k, { ...a, path: inside(dir, a.path) }]),
        )
      : null;
    state.restore({
      ...fields,
      createdAt: new Date(r.createdAt),
      uploadPath: inside(dir, r.uploadPath),
      artifacts,
      version: 0,
    });
  }
  const charges = loaded.dubs.flatMap((d) => (d.charge ? [d.charge] : []));
  state.ledger.push(...charges.sort((a, b) => a.at.localeCompare(b.at)));
  for (const a of loaded.accounts) {
    const { creditBase, ...fields } = a;
    const account: SandboxAccount = { ...fields, seconds: creditBase };
    state.restoreAccount(account);
  }
  for (const c of state.ledger) {
    const owner = state.accounts.get(c.userId);
    if (owner) owner.seconds -= c.seconds;
  }
}

export interface PersistedMeta {
  signingSecret: string;
  port: number | null;
}

/**
 * Writes what changed, one file per dub plus small accounts and meta files, each replaced atomically.
 * Changes made while a write is under way are gathered into the next one (group commit), so a burst of
 * requests costs a few writes, not one each; `flush()` resolves once everything changed before the call
 * is on disk, which is what an answer to a client waits for.
 */
export class StatePersister implements StateListener {
  private readonly dirtyDubs = new Set<SandboxDub>();
  private accountsDirty = false;
  private metaDirty = false;
  private marks = 0;
  private savedUpTo = 0;
  private writing: Promise<void> | null = null;
  private scheduled = false;
  private lastRoundFailed = false;
  private waiters: { upTo: number; resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly dir: string,
    private readonly state: SandboxState,
    readonly meta: PersistedMeta,
  ) {}

  dubSaved(dub: SandboxDub): void {
    this.dirtyDubs.add(dub);
    this.mark();
  }

  accountsSaved(): void {
    this.accountsDirty = true;
    this.mark();
  }

  metaSaved(): void {
    this.metaDirty = true;
    this.mark();
  }

  /** Resolves once every change made before this call is on disk; rejects if writing it failed. */
  flush(): Promise<void> {
    if (this.savedUpTo >= this.marks) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo: this.marks, resolve, reject });
      this.schedule();
    });
  }

  private mark(): void {
    this.marks++;
    this.schedule();
  }

  /** Waits for the current turn of the event loop to finish marking, then writes it all at once. */
  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.writing = this.writeRound().finally(() => {
        this.writing = null;
        if (this.savedUpTo >= this.marks) return;
        // A failing disk is retried once a second, not in a tight loop.
        if (this.lastRoundFailed) setTimeout(() => this.schedule(), 1000).unref();
        else this.schedule();
      });
    });
  }

  private async writeRound(): Promise<void> {
    const upTo = this.marks;
    const dubs = [...this.dirtyDubs];
    const accounts = this.accountsDirty;
    const meta = this.metaDirty;
    this.dirtyDubs.clear();
    this.accountsDirty = false;
    this.metaDirty = false;
    try {
      await Promise.all([
        ...dubs.map((d) =>
          writeAtomic(join(this.dir, DUBS, `${d.id}.json`), JSON.stringify(this.dubRecord(d))),
        ),
        ...(accounts ? [writeAtomic(join(this.dir, ACCOUNTS), JSON.stringify(this.accountsFile()))] : []),
        ...(meta ? [writeAtomic(join(this.dir, META), JSON.stringify(this.metaFile()))] : []),
      ]);
      this.savedUpTo = upTo;
      this.lastRoundFailed = false;
      this.settle(upTo, null);
    } catch (e) {
      // Kept dirty for the next round; the callers waiting on this one hear that it failed.
      for (const d of dubs) this.dirtyDubs.add(d);
      this.accountsDirty ||= accounts;
      this.metaDirty ||= meta;
      this.lastRoundFailed = true;
      this.settle(upTo, e);
    }
  }

  private settle(upTo: number, error: unknown): void {
    const done = this.waiters.filter((w) => w.upTo <= upTo);
    this.waiters = this.waiters.filter((w) => w.upTo > upTo);
    for (const w of done) {
      if (error) w.reject(error);
      else w.resolve();
    }
  }

  private dubRecord(d: SandboxDub): DubRecord {
    const { version: _version, createdAt, uploadPath, artifacts, ...fields } = d;
    return {
      format: STATE_FORMAT,
      ...fields,
      createdAt: createdAt.toISOString(),
      uploadPath: portable(this.dir, uploadPath),
      artifacts: artifacts
        ? Object.fromEntries(
            Object.entries(artifacts).map(([k, a]) => [k, { ...a, path: portable(this.dir, a.path) }]),
          )
        : null,
    };
  }

  private accountsFile(): AccountsFile {
    return {
      format: STATE_FORMAT,
      accounts: [...this.state.accounts.values()].map(({ seconds, ...a }) => ({
        ...a,
        creditBase: seconds + this.state.chargedTo(a.id),
      })),
    };
  }

  private metaFile(): MetaFile {
    return {
      format: STATE_FORMAT,
      signingSecret: this.meta.signingSecret,
      clockOffsetMs: this.state.clockOffsetMs,
      port: this.meta.port,
    };
  }
}

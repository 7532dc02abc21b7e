import { constants, type BigIntStats, type Stats } from 'node:fs';
import { lstat, open, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { foreignLinkFrom } from '../../file-safety/foreign-link';

/**
 * Files Dubdesk writes in folders others may write into too (a shared drive, a synced folder): a `.part`
 * it downloads into, a result it moves into place. Someone who can write there can plant a link (or a hard
 * link, or a folder) at the name Dubdesk is about to use; nothing here ever writes through one, reads
 * through one, or takes it for Dubdesk's own.
 *
 * Windows has no `O_NOFOLLOW` (links there need an administrator or Developer Mode to make): a name is
 * looked at (lstat) just before it is created, `O_EXCL` refuses anything there, and once open the handle
 * must be the very file the name holds (not a link), else it is closed and the name counted as taken.
 */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Who Dubdesk runs as, where the platform says (not Windows). */
const UID = process.getuid?.() ?? null;

/** Which file a name held: the same (device, inode) is the same file whatever its name now. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export const identityOf = (st: Stats | BigIntStats): FileIdentity => ({
  dev: Number(st.dev),
  ino: Number(st.ino),
});
export const sameFile = (a: FileIdentity, b: FileIdentity) => a.dev === b.dev && a.ino === b.ino;

/** An entry Dubdesk did not make is at a name it was about to use: the name is taken, nothing was written. */
export class NameTakenError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path} is taken (${why}); Dubdesk wrote nothing through it`);
    this.name = 'NameTakenError';
  }
}

/** What an entry is, in words, for the message that refuses it. */
function whatIs(st: Stats): string {
  if (st.isSymbolicLink()) return 'a link';
  if (st.isDirectory()) return 'a folder';
  if (!st.isFile()) return 'not a plain file';
  if (UID !== null && st.uid !== UID) return 'a file of another user';
  if (st.nlink !== 1) return 'a file with other names (a hard link)';
  return 'a file';
}

/**
 * Whether an entry (lstat) can be a file of Dubdesk's own: a plain file of this user's with no other name.
 * Dubdesk makes its part files itself (`createOwnFile`) at names a job recorded before, so a file of that
 * kind at such a name is the one it left; a link, a folder, another user's file, or a hard link to a file
 * elsewhere is someone else's.
 */
export function mayBeOwn(st: Stats): boolean {
  return whatIs(st) === 'a file';
}

/** The entry at `path` (not what a link there points to), or null when there is none. */
export async function entryAt(path: string): Promise<Stats | null> {
  return lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}

/** `entryAt` with the exact numbers (nanosecond times, 64-bit inode): what a result is recorded by. */
export async function exactEntryAt(path: string): Promise<BigIntStats | null> {
  return lstat(path, { bigint: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
}

/** The handle must be the file the name holds now: a plain file (never a link), the same one. */
async function stillThere(fh: FileHandle, path: string): Promise<FileIdentity> {
  const [st, entry] = await Promise.all([fh.stat(), entryAt(path)]);
  if (entry && entry.isFile() && sameFile(identityOf(st), identityOf(entry))) return identityOf(st);
  await fh.close();
  throw new NameTakenError(path, entry ? whatIs(entry) : 'it went away while it was opened');
}

/** Refused when `folder`, or one above it, is another user's link (it may lead anywhere they chose). */
export async function notThroughForeignLink(folder: string): Promise<void> {
  const foreign = await foreignLinkFrom(resolve(folder));
  if (foreign !== null)
    throw new NameTakenError(folder, `reached through ${foreign}, a link another user made`);
}

/**
 * A file made just now for writing: never over an entry already there, never through a link, nor in a
 * folder reached through another user's link (a `es/` put there as a link to one of theirs).
 */
export async function createOwnFile(path: string): Promise<{ fh: FileHandle; identity: FileIdentity }> {
  await notThroughForeignLink(dirname(path));
  if (NO_FOLLOW === 0) {
    const entry = await entryAt(path);
    if (entry) throw new NameTakenError(path, whatIs(entry));
  }
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
  const fh = await open(path, flags, 0o666).catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST' && e.code !== 'ELOOP') throw e;
    const entry = await entryAt(path);
    throw new NameTakenError(path, entry ? whatIs(entry) : 'a link');
  });
  const identity = await stillThere(fh, path);
  // A folder swapped for a link while the file was made: the file made goes, nothing is written in it.
  await notThroughForeignLink(dirname(path)).catch(async (e: unknown) => {
    await fh.close();
    await unlink(path).catch(() => {});
    throw e;
  });
  return { fh, identity };
}

/**
 * Dubdesk's own file at `path` opened again, to append to (a resumed download) or to read: a plain file of
 * this user's with no other name, and the one `expected` names when given. Anything else is refused as taken.
 */
export async function openOwnFile(
  path: string,
  mode: 'append' | 'read',
  expected?: FileIdentity,
): Promise<{ fh: FileHandle; identity: FileIdentity }> {
  const flags =
    (mode === 'append' ? constants.O_WRONLY | constants.O_APPEND : constants.O_RDONLY) | NO_FOLLOW;
  const fh = await open(path, flags).catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'ELOOP' && e.code !== 'EISDIR') throw e;
    const entry = await entryAt(path);
    throw new NameTakenError(path, entry ? whatIs(entry) : 'a link');
  });
  const st = await fh.stat();
  if (!mayBeOwn(st) || (expected && !sameFile(identityOf(st), expected))) {
    await fh.close();
    throw new NameTakenError(path, expected && mayBeOwn(st) ? 'another file' : whatIs(st));
  }
  return { fh, identity: await stillThere(fh, path) };
}

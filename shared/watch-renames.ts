import type { WatchFile } from './contract/watch';

const sameJobs = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * The file `f` was renamed from: its original is gone, and `f` shares that file's dubs as they are (a copy
 * beside the rename has copy jobs of its own). A rename keeps its results' names (watch/renames.ts).
 */
export function renamedFrom(f: WatchFile, all: readonly WatchFile[]): WatchFile | null {
  if (f.status !== 'duplicate' || !f.duplicateOf || f.gone) return null;
  const original = all.find((x) => x.path === f.duplicateOf && x.id !== f.id);
  return original?.gone && sameJobs(original.jobIds, f.jobIds) ? original : null;
}

/** The name a gone file lives on under, when it was renamed in its folder. */
export function renamedTo(f: WatchFile, all: readonly WatchFile[]): WatchFile | null {
  if (!f.gone) return null;
  return all.find((x) => renamedFrom(x, all)?.id === f.id) ?? null;
}

/**
 * The version that replaced `f` at its path, when the file was changed in place: `f`'s results went to
 * `previous/`, and only the file now there can be dubbed again.
 */
export function newerVersion(f: WatchFile, all: readonly WatchFile[]): WatchFile | null {
  return all.find((x) => x.path === f.path && x.version > f.version) ?? null;
}

/** What became of an earlier version: "earlier version, replaced: its results are in previous/". */
export const earlierVersionWords = (f: WatchFile): string =>
  `earlier version, replaced${f.status === 'done' ? ': its results are in previous/' : ''}`;

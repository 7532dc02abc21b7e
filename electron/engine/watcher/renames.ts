import { existsSync } from 'node:fs';
import type { WatchFileRow } from '../db/watch';
import type { Cover } from './copies';
import type { WatchEnv } from './env';

/**
 * Whether `row` is the file its covering dub was made from, renamed: that file is no longer where it was,
 * and no other file of this content in the folder has taken its place (a copy made beside the rename is
 * a copy). A rename is the same file: it shares the dubs as they are, and their results keep their names:
 * they are finished files the user may already have sent or used under those names, and a second set under
 * the new name would only double what the output folder holds.
 */
export function renamedFrom(env: WatchEnv, row: WatchFileRow, cover: Cover): boolean {
  if (cover.fileId === null || !row.hash) return false;
  const original = env.watch.files.get(cover.fileId);
  if (!original || original.folder_id !== row.folder_id || original.moved_to) return false;
  if (existsSync(original.path)) return false;
  const others = env.watch.files.sameContent(row.folder_id, row.hash, original.preset_version ?? 0, row.id);
  return !others.some((f) => f.id !== original.id && f.current === 1 && f.gone === 0);
}

import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';

/** What a file is on disk, whatever path reaches it: its device and inode. */
export async function fileIdOf(path: string): Promise<string | null> {
  const info = await stat(path, { bigint: true }).catch(() => null);
  return info?.isFile() ? fileIdFrom(info) : null;
}

export const fileIdFrom = (info: BigIntStats): string => `${info.dev}:${info.ino}`;

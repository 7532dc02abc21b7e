import { rename, rm, writeFile } from 'node:fs/promises';

let counter = 0;

/**
 * Replaces `path` whole or not at all: the text goes to a temporary file beside it, then a rename swaps it
 * in. A process killed at any moment leaves either the old file or the new one (and maybe a stray `.tmp-`
 * file, removed on the next load). No fsync: the sandbox guards against a killed process, whose written
 * pages the kernel still has, not against a power cut.
 */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${++counter}`;
  try {
    // Owner only: the files hold API keys and the secret that signs links.
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export const isTempFile = (name: string) => /\.tmp-\d+-\d+$/.test(name);

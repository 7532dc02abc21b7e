/** The one SHA-256 reader of a file, shared by the content hashes of sources and the watched folders' takes. */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Of } from '../../electron/engine/files/sha256';
import { tempDir } from '../helpers/temp-dir';

const MiB = 1024 * 1024;

async function hashed(bytes: Buffer, sizeSeen: number, signal?: AbortSignal): Promise<string> {
  const path = join(tempDir(), 'clip ünïcode.wav');
  writeFileSync(path, bytes);
  const fh = await open(path, 'r');
  try {
    return await sha256Of(fh, sizeSeen, signal);
  } finally {
    await fh.close();
  }
}

describe('the SHA-256 of a file', () => {
  it.each([
    ['empty', 0, 0],
    ['small', 5, 5],
    ['bigger than the buffer', 3 * MiB + 7, 3 * MiB + 7],
    ['grown since its size was seen', 2 * MiB + 1, 10],
    ['shrunk since its size was seen', 10, 2 * MiB],
  ])('%s: all of its bytes, whatever size was seen', async (_what, size, seen) => {
    const bytes = randomBytes(size);
    expect(await hashed(bytes, seen)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('stops when asked to', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopping'));
    await expect(hashed(randomBytes(100), 100, stop.signal)).rejects.toThrow('stopping');
  });
});

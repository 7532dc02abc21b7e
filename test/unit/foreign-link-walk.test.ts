import { lchownSync, mkdirSync, symlinkSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { foreignLinkFrom } from '../../electron/file-safety/foreign-link';
import { tempDir } from '../helpers/temp-dir';

// Counts the file system calls the walk makes (each is a trip to libuv's thread pool), and makes them.
const calls = vi.hoisted(() => ({ lstat: 0, realpath: 0 }));
vi.mock('node:fs/promises', async (actual) => {
  const fs = await actual<typeof fsPromises>();
  return {
    ...fs,
    lstat: (...a: Parameters<typeof fs.lstat>) => (calls.lstat++, fs.lstat(...a)),
    realpath: (...a: Parameters<typeof fs.realpath>) => (calls.realpath++, fs.realpath(...a)),
  };
});

afterEach(() => {
  calls.lstat = 0;
  calls.realpath = 0;
});

const asRoot = process.getuid?.() === 0;

describe('the look for another user’s link on the way to a folder', () => {
  it('asks once for a folder with no link on its way, not once per folder above it', async () => {
    const deep = join(tempDir(), 'a', 'b', 'c', 'd');
    mkdirSync(deep, { recursive: true });
    expect(await foreignLinkFrom(deep)).toBeNull();
    expect(calls.lstat + calls.realpath).toBe(1);
  });

  it.runIf(asRoot)('still finds the link another user made above it (as root: lchown)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'theirs', 'es'), { recursive: true });
    symlinkSync(join(dir, 'theirs'), join(dir, 'link'));
    lchownSync(join(dir, 'link'), 65534, 65534);
    expect(await foreignLinkFrom(join(dir, 'link', 'es'))).toBe(join(dir, 'link'));
  });

  it('follows a link the user made', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'mine', 'es'), { recursive: true });
    symlinkSync(join(dir, 'mine'), join(dir, 'link'));
    expect(await foreignLinkFrom(join(dir, 'link', 'es'))).toBeNull();
  });
});

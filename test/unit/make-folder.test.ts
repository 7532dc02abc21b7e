import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolder } from '../../electron/engine/files/make-folder';
import { tempDir } from '../helpers/temp-dir';

describe('makeFolder', () => {
  it('makes every missing level, and is happy with a folder that exists', async () => {
    const dir = join(tempDir(), 'a', 'b', 'c');
    await makeFolder(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    await makeFolder(dir);
  });

  it('refuses a file in the way with ENOTDIR', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, 'x');
    await expect(makeFolder(join(file, 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(!existsSync('/proc/self'))(
    'fails, instead of looping for ever as recursive mkdir does, where a folder takes no new folders',
    async () => {
      await expect(makeFolder('/proc/dubdesk-nope/deeper')).rejects.toMatchObject({ code: 'EACCES' });
    },
  );
});

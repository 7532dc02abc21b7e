import { createHash, randomBytes } from 'node:crypto';
import { storeAt } from '../helpers/store';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentHashes } from '../../electron/engine/db/content-hashes';
import { fileIdOf } from '../../electron/engine/db/own-files';
import { enqueue } from '../../electron/engine/jobs/life';
import { newJob } from '../helpers/new-job';
import { openDatabase } from '../../electron/engine/db/open';
import { tempDir } from '../helpers/temp-dir';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a file’s content hash', () => {
  it('is the SHA-256 of all its bytes, empty, small or larger than one read; read once while unchanged', async () => {
    const dir = tempDir();
    const hashes = new ContentHashes(openDatabase(join(dir, 'q.db')));
    for (const [name, bytes] of [
      ['empty', Buffer.alloc(0)],
      ['small', randomBytes(1000)],
      ['large', randomBytes(2.5 * 1024 * 1024 + 7)],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const { size, mtimeMs } = statSync(path);
      expect(await hashes.of(path, size, mtimeMs), name).toBe(sha(bytes));
      writeFileSync(path, Buffer.from('changed behind the same size and time'));
      // Same size and time as recorded: the recorded hash, the file is not read again.
      expect(await hashes.of(path, size, mtimeMs), name).toBe(sha(bytes));
    }
  });

  it('reads a file that grew since it was looked at to its end', async () => {
    const dir = tempDir();
    const hashes = new ContentHashes(openDatabase(join(dir, 'q.db')));
    const path = join(dir, 'growing');
    const bytes = randomBytes(5000);
    writeFileSync(path, bytes);
    expect(await hashes.of(path, 100, 1)).toBe(sha(bytes));
  });

  it('a result saved is recorded as Dubdesk’s own file and by its content, its hash kept for the next look', async () => {
    const dir = tempDir();
    const store = storeAt(join(dir, 'q.db'));
    const path = join(dir, 'talk.es.mp4');
    const bytes = randomBytes(3000);
    writeFileSync(path, bytes);
    const id = enqueue(store, newJob('/in/talk.mp4'), null);
    store.outputs.put({ job_id: id, type: 'translated_mp4', path, bytes: bytes.length, done: 1 });
    await store.results.recordResult(path);
    expect(
      store.db
        .prepare(`SELECT path FROM own_files WHERE file_id = ?`)
        .pluck()
        .get(await fileIdOf(path)),
    ).toBe(path);
    expect(store.results.resultWithContent(sha(bytes))).toBe(path);
    const { size, mtimeMs } = statSync(path);
    expect(new ContentHashes(store.db).known(path, size, mtimeMs)).toBe(sha(bytes));
  });
});

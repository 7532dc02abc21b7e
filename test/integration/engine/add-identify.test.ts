/**
 * An add knows each file by the SHA-256 of its bytes. A file that probing's one read took whole (a short
 * clip) is hashed from that read, not opened again; a larger one is read to its end once. Both hashes are
 * kept, so the next add of the same files reads neither again.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { countFileCalls } from '../../helpers/fs-calls';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let service: FakeService | undefined;
let host: DubdeskHost | undefined;
afterEach(async () => {
  await host?.close();
  await service?.close();
  host = service = undefined;
});

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the files of an add', () => {
  it('are known by the SHA-256 of all their bytes, each read once: a short one by probing alone', async () => {
    const media = tempDir();
    const short = join(media, 'short.mp3');
    const long = join(media, 'long.mp3');
    copyFileSync(audioMp3(2.5), short); // 20 kB: within probing's one read
    copyFileSync(audioMp3(20), long); // 160 kB: past it
    const home = tempDir();
    service = await fakeService();
    host = openDubdesk({ home, face: 'cli', service: { baseUrl: service.url, apiKey: 'k' } });
    const opens = (path: string) => {
      const calls = countFileCalls((p) => p === path);
      return { count: calls.opens, undo: calls.undo };
    };
    for (const round of ['first add', 'the same files again']) {
      const [shortOpens, longOpens] = [opens(short), opens(long)];
      try {
        await host.api.add({ inputs: [media], to: ['es', 'fr'], outDir: tempDir() });
      } finally {
        shortOpens.undo();
        longOpens.undo();
      }
      expect(shortOpens.count(), `${round}: the short file`).toBe(1);
      // Probed, then hashed to its end the first time; probed alone once its hash is known.
      expect(longOpens.count(), `${round}: the long file`).toBe(round === 'first add' ? 2 : 1);
    }
    const db = new Database(join(home, 'dubdesk.db'), { readonly: true });
    try {
      const jobs = db.prepare(`SELECT source, source_hash FROM jobs ORDER BY id`).all();
      expect(jobs).toEqual(
        [long, long, short, short].map((source) => ({ source, source_hash: sha256(source) })),
      );
      const kept = db.prepare(`SELECT path, hash FROM content_hashes ORDER BY path`).all();
      expect(kept).toEqual([long, short].map((path) => ({ path, hash: sha256(path) })));
    } finally {
      db.close();
    }
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { diskPartFiles, type PartFiles } from '../../../electron/engine/api/download';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { fakeService, servingBytes, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { countFileCalls } from '../../helpers/fs-calls';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
let host: DubdeskHost | undefined;
let undo: (() => void) | undefined;
afterEach(async () => {
  undo?.();
  await host?.close();
  await service?.close();
  host = service = undo = undefined;
});

const MB = 1024 * 1024;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Dubs one video into `out`, its results downloaded through `partFiles`; returns the outputs as recorded. */
async function dubInto(out: string, media: Buffer, partFiles?: PartFiles) {
  const home = tempDir();
  service = await fakeService({ download: servingBytes(media) });
  host = openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: service.url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 3,
    ...(partFiles ? { partFiles } : {}),
  });
  await host.api.add({ inputs: [videoMp4(2, 'hashed.mp4')], to: ['es'], outDir: out });
  expect(await host.run(quickRun())).toBe('done');
  const db = new Database(join(home, 'dubdesk.db'), { readonly: true });
  try {
    return db.prepare(`SELECT path, content_hash FROM outputs ORDER BY path`).all() as {
      path: string;
      content_hash: string | null;
    }[];
  } finally {
    db.close();
  }
}

const media = (bytes: number) =>
  Buffer.concat([Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'), randomBytes(bytes)]);

describe("a result's content, recorded to recognise copies of it", () => {
  it('is hashed as it downloads: the recorded hash is the SHA-256 of the file, never read again for it', async () => {
    const out = tempDir();
    const results = [join(out, 'hashed.es.mp4'), join(out, 'hashed.es.vtt')];
    const [video, subtitles] = results as [string, string];
    const videoCalls = countFileCalls((p) => p === video);
    const subtitleCalls = countFileCalls((p) => p === subtitles);
    // Undone in the reverse order: the second wraps the first.
    undo = () => {
      subtitleCalls.undo();
      videoCalls.undo();
    };
    const rows = await dubInto(out, media(256 * 1024));
    expect(videoCalls.opens()).toBe(0);
    // Read once here, by QC, which checks the subtitles (the video's sound it hears through ffmpeg).
    expect(subtitleCalls.opens()).toBeLessThanOrEqual(1);
    undo();
    expect(rows.map((r) => r.path)).toEqual(results);
    for (const r of rows) expect(r.content_hash).toBe(sha256(r.path));
  });

  it('a download resumed from its part file is hashed whole, the part before and the bytes after', async () => {
    const out = tempDir();
    let refused = false;
    // The disk is full once, a megabyte in: the download resumes from the part with a Range request.
    const fullOnce: PartFiles = {
      async open(path, append, expected) {
        const file = await diskPartFiles.open(path, append, expected);
        let size = 0;
        return {
          identity: file.identity,
          write: async (chunk) => {
            if (!refused && size + chunk.length > MB) {
              refused = true;
              await file.write(chunk.subarray(0, MB - size));
              throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            }
            await file.write(chunk);
            size += chunk.length;
          },
          close: () => file.close(),
        };
      },
    };
    const rows = await dubInto(out, media(3 * MB), fullOnce);
    expect(service?.downloads().some((d) => d.headers.range === `bytes=${MB}-`)).toBe(true);
    for (const r of rows) expect(r.content_hash).toBe(sha256(r.path));
  });

  it('a fresh download is sniffed from the bytes it wrote: its part file is opened once, to be made', async () => {
    const out = tempDir();
    const parts = [join(out, 'hashed.es.mp4.part'), join(out, 'hashed.es.vtt.part')];
    const partCalls = countFileCalls((p) => parts.includes(p));
    undo = partCalls.undo;
    await dubInto(out, media(256 * 1024));
    expect(partCalls.opens()).toBe(parts.length);
  });
});

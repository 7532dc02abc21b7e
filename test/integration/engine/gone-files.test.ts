import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskPartFiles, type PartFiles } from '../../../electron/engine/api/download';
import { classify } from '../../../electron/engine/jobs/errors';
import { openDubdesk, type DubdeskHost } from '../../../electron/engine/index';
import { fakeService, servingBytes, type FakeService } from '../../helpers/fake-service';
import { quickRun, recordJobs } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
let host: DubdeskHost | undefined;
afterEach(async () => {
  await host?.close();
  await service?.close();
  host = service = undefined;
});

describe('a file gone while a job uses it', () => {
  it('the output folder deleted once a download is written: the retry says once what happened and where', async () => {
    const out = join(tempDir(), 'out');
    let removed = false;
    // The user deletes the output folder right after the first result is written, before it is moved into place.
    const deleting: PartFiles = {
      async open(path, append, expected) {
        const file = await diskPartFiles.open(path, append, expected);
        return {
          identity: file.identity,
          write: (chunk) => file.write(chunk),
          close: async () => {
            await file.close();
            if (!removed) {
              removed = true;
              await rm(out, { recursive: true, force: true });
            }
          },
        };
      },
    };
    const media = Buffer.concat([Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'), randomBytes(4096)]);
    service = await fakeService({ download: servingBytes(media) });
    host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: service.url, apiKey: 'k' },
      backoff: { baseMs: 20, capMs: 100 },
      maxServiceAttempts: 3,
      partFiles: deleting,
    });
    const seen = recordJobs(host.api);
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'clip.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('completed');
    // Said once, naming the folder, with what happens next: it is made again and the result fetched again.
    const retry = job.history.find((h) => h.event === 'wait')?.reason;
    expect(retry).toBe(
      `retrying after: ${out} is gone: it was moved or deleted while a result was saved in it`,
    );
    expect(seen.some((j) => j.waiting?.message === retry)).toBe(true);
    expect(readFileSync(join(out, 'clip.es.mp4')).equals(media)).toBe(true);
  });

  it('any other file error of a step says its code once, and a gone file is named with the fix', async () => {
    const dir = tempDir();
    const gone = await stat(join(dir, 'clip.mp4')).catch((e: unknown) => e);
    expect(classify(gone).error).toEqual({
      code: 'not-found',
      message: `${join(dir, 'clip.mp4')} is gone: it was moved or deleted while the job used it`,
      remedy: 'Put it back, then retry the job.',
    });
    const folder = await readFile(dir).catch((e: unknown) => e);
    expect(classify(folder).error.message).toBe('EISDIR: illegal operation on a directory, read');
  });
});

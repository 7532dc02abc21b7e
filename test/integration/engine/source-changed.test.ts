import { appendFileSync, copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { engineFor, quickRun, whenJob } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

/** An MP4 box of `bytes` that players skip: what makes a file long without making it another video. */
function freeBox(bytes: number): Buffer {
  const box = Buffer.alloc(bytes);
  box.writeUInt32BE(bytes, 0);
  box.write('free', 4, 'latin1');
  return box;
}

/**
 * A 2 s video padded to 16 MiB: at the sandbox's 8 MiB/s link its upload takes seconds, far longer than
 * the socket buffers hold, so its last bytes are still on disk when the test changes the file.
 */
function bigVideo(name: string): string {
  const file = join(tempDir(), name);
  copyFileSync(videoMp4(2, name), file);
  appendFileSync(file, freeBox(16 * 1024 * 1024));
  return file;
}

describe('a source that changes under its upload is not dubbed as it was', () => {
  for (const api of ['v2', 'v1'] as const)
    it(`${api}: appended to during the upload, nothing is created from the old bytes; the whole file is dubbed once`, async () => {
      const sb = await startSandbox({ pipelineSeconds: 0.3, linkRateMiBps: 8 });
      sandboxes.push(sb);
      const engine = engineFor(sb);
      try {
        const file = bigVideo(`growing-${api}.mp4`);
        const added = await engine.api.add({ inputs: [file], to: ['es'], outDir: tempDir(), api });
        const sending = whenJob(engine.api, (j) => j.state === 'uploading' && j.progress > 0);
        const running = engine.run(quickRun(1));
        await sending;
        appendFileSync(file, freeBox(64 * 1024)); // the export goes on
        expect(await running).toBe('done');
        const job = await engine.api.getJob({ id: added.added[0] ?? 0 });
        expect(job.state).toBe('completed');
        expect(job.history.map((h) => h.reason).join('\n')).toMatch(
          /changed while it was being sent \(now \d+ bytes, was \d+\); nothing was created from it/,
        );
        // One dub, of the file as it is now: never one of the bytes sent before it changed.
        const dubs = startedDubs(sb);
        expect(dubs).toHaveLength(1);
        expect(statSync(dubs[0]?.uploadPath ?? '').size).toBe(statSync(file).size);
        expect(sb.state.ledger).toHaveLength(1);
      } finally {
        await engine.close();
      }
    });
});

/**
 * A source's looks on its way out, counted: every look at a file is a trip to the thread pool, and the
 * engine's overhead per job is mostly such steps. Before a v2 create, the source is opened once to see that
 * it is still a plain file, and what that open saw (its size and time) is what the job's record is held
 * against; the upload opens it, and looks once more as its last bytes leave: one stat of its path, not two.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { countFileCalls } from '../../helpers/fs-calls';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

describe("a source's looks before its v2 create", () => {
  it('are one open and its handle, and one look as the upload ends', async () => {
    const work = tempDir('dubdesk-source-looks-');
    const source = join(work, 'talk.mp3');
    copyFileSync(audioMp3(1, 'source-looks.mp3'), source);
    const host = engineFor(sb, join(work, 'home'));
    const calls = countFileCalls((p) => p === source);
    try {
      const added = await host.api.add({ inputs: [source], to: ['es'], send: 'file' });
      expect(added.added).toHaveLength(1);
      const [statsAtAdd, opensAtAdd] = [calls.stats(), calls.opens()];
      expect(await host.run(quickRun(1))).toBe('done');
      expect((await host.api.getJob({ id: added.added[0] ?? 0 })).state).toBe('completed');
      expect({ stats: calls.stats() - statsAtAdd, opens: calls.opens() - opensAtAdd }).toEqual({
        stats: 1,
        opens: 2,
      });
    } finally {
      calls.undo();
      await host.close();
    }
  });
});

/**
 * A downloaded output's name, counted: every look at a file is a trip to the thread pool, and the engine's
 * overhead per job is mostly such steps. Each of a job's two outputs is looked at twice under its name:
 * once when the name is picked (free of any entry), once when the part was linked there (the very file
 * written); what records it as a result takes that last look, never a third.
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

describe("a job's outputs", () => {
  it('are each looked at twice under their names, and recorded as results from the last look', async () => {
    const work = tempDir('dubdesk-output-looks-');
    const source = join(work, 'talk.mp3');
    copyFileSync(audioMp3(1, 'output-looks.mp3'), source);
    const outputs = [join(work, 'talk.es.mp3'), join(work, 'talk.es.vtt')];
    const host = engineFor(sb, join(work, 'home'));
    const calls = countFileCalls((p) => outputs.includes(p));
    try {
      const added = await host.api.add({ inputs: [source], to: ['es'] });
      expect(added.added).toHaveLength(1);
      const looksAtAdd = calls.stats();
      expect(await host.run(quickRun(1))).toBe('done');
      const job = await host.api.getJob({ id: added.added[0] ?? 0 });
      expect(job.outputs.map((o) => o.path).sort()).toEqual(outputs);
      expect(calls.stats() - looksAtAdd).toBe(4);

      // Recorded as results all the same: a copy of either is known for one.
      const copy = join(tempDir('dubdesk-output-looks-'), 'copy.mp3');
      copyFileSync(outputs[0] ?? '', copy);
      const estimate = await host.api.estimate({ inputs: [copy], to: ['fr'] });
      expect(estimate.files[0]?.problem?.message).toContain("is a copy of Dubdesk's result talk.es.mp3");
    } finally {
      calls.undo();
      await host.close();
    }
  });
});

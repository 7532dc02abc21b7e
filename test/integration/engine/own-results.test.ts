import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

describe('adding a folder that holds earlier results', () => {
  it('leaves Dubdesk’s own results out (no dub of a dub, paid for), unless one is named itself', async () => {
    const dir = join(tempDir('dubdesk-own-'), 'talks');
    mkdirSync(dir);
    copyFileSync(videoMp4(2, 'own-src.mp4'), join(dir, 'talk.mp4'));
    const host = engineFor(sb);
    try {
      await host.api.add({ inputs: [join(dir, 'talk.mp4')], to: ['es'] });
      expect(await host.run(quickRun())).toBe('done');
      const result = join(dir, 'talk.es.mp4');

      const folder = await host.api.estimate({ inputs: [dir], to: ['fr'] });
      expect(folder.files.map((f) => f.name)).toEqual(['talk.mp4']);
      expect(folder.jobs).toBe(1);

      const named = await host.api.estimate({ inputs: [result], to: ['fr'] });
      expect(named.jobs).toBe(1);

      const only = join(tempDir('dubdesk-own-'), 'results');
      mkdirSync(only);
      await host.api.add({ inputs: [join(dir, 'talk.mp4')], to: ['de'], outDir: only });
      expect(await host.run(quickRun())).toBe('done');
      const none = await host.api.estimate({ inputs: [only], to: ['fr'] });
      expect(none.jobs).toBe(0);
      expect(none.files[0]?.problem?.message).toContain(
        'only video or audio files in this folder are Dubdesk',
      );
    } finally {
      await host.close();
    }
  });

  it('still knows what it dubbed after the finished jobs are cleared: nothing is paid again', async () => {
    const dir = join(tempDir('dubdesk-own-'), 'cleared');
    mkdirSync(dir);
    copyFileSync(videoMp4(2, 'own-src.mp4'), join(dir, 'clip.mp4'));
    const host = engineFor(sb);
    try {
      const first = await host.api.add({ inputs: [dir], to: ['es'] });
      expect(await host.run(quickRun())).toBe('done');
      const paid = sb.state.ledger.length;
      const cleared = await host.api.clearJobs({ ids: first.added });
      expect(cleared.changed).toEqual(first.added);
      expect((await host.api.listJobs({ offset: 0, limit: 50 })).total).toBe(0);
      expect((await host.api.totals()).counts.completed ?? 0).toBe(0);
      await expect(host.api.getJob({ id: first.added[0] ?? 0 })).rejects.toMatchObject({
        code: 'not-found',
        message: `job ${first.added[0]} was cleared from the list`,
      });

      // The same folder again: the source is already dubbed, and its result is not a new source.
      const again = await host.api.add({ inputs: [dir], to: ['es'] });
      expect(again.added).toEqual([]);
      expect(again.alreadyDone.map((d) => d.jobId)).toEqual(first.added);
      expect((await host.api.estimate({ inputs: [dir], to: ['fr'] })).files.map((f) => f.name)).toEqual([
        'clip.mp4',
      ]);
      expect(sb.state.ledger.length).toBe(paid);
    } finally {
      await host.close();
    }
  });
});

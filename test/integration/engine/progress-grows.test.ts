/**
 * One number per job that only grows (issue 31.6): the upload, the service's work and the download are
 * parts of one 0..100, the state naming the phase beside it. Before, each phase counted from 0 again: 100%
 * uploaded, then 0% in the service's queue, 73% dubbing, then 12% downloading.
 */
import { describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox } from '../../../electron/sandbox/server';
import type { EngineEvent } from '../../../shared/contract/events';
import type { JobView } from '../../../shared/contract/jobs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

describe('a job’s progress', () => {
  it('only grows through upload, dubbing and download, and ends at 100', async () => {
    // Slow enough a pipeline for the service's work to be seen in several steps.
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 2 });
    const host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
      backoff: { baseMs: 50, capMs: 400 },
    });
    const seen = new Map<number, Pick<JobView, 'state' | 'progress'>[]>();
    host.api.subscribe((e: EngineEvent) => {
      if (e.type !== 'job') return;
      const list = seen.get(e.job.id) ?? [];
      list.push({ state: e.job.state, progress: e.job.progress });
      seen.set(e.job.id, list);
    });
    try {
      const files = [videoMp4(6, 'grows-a.mp4'), videoMp4(8, 'grows-b.mp4')];
      await host.api.add({ inputs: files, to: ['es', 'fr'], outDir: tempDir() });
      expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      expect(seen.size).toBe(4);
      for (const [id, steps] of seen) {
        const back = steps.filter((s, i) => i > 0 && s.progress < (steps[i - 1]?.progress ?? 0));
        expect(
          back,
          `job ${id}: ${steps.map((s) => `${s.state} ${Math.floor(s.progress)}%`).join(', ')}`,
        ).toEqual([]);
        expect(steps.at(-1)).toEqual({ state: 'completed', progress: 100 });
        expect(steps.every((s) => s.progress >= 0 && s.progress <= 100)).toBe(true);
      }
      // Each phase moves the number on: the service's work starts where the upload ended.
      const states = [...seen.values()].flat();
      const at = (state: JobView['state']) => states.filter((s) => s.state === state).map((s) => s.progress);
      expect(Math.min(...at('processing'), 100)).toBeGreaterThanOrEqual(Math.max(...at('uploading'), 0));
      expect(Math.min(...at('downloading'), 100)).toBeGreaterThanOrEqual(Math.max(...at('processing'), 0));
    } finally {
      await host.close();
      await sb.stop();
    }
  });
});

/**
 * A file whose chapters run past its end (the container says 12 s, its picture and sound last 6 s): the
 * estimate, the queue's length and "Dub again"'s cost say what the service will bill, on the audio path
 * (the sound sent) and on the whole-file path (the file as the service measures it), never less.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import type { Send } from '../../../shared/contract/jobs';
import { ffprobeJson, videoChaptersPastEnd } from '../../helpers/media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

describe('chapters running past the end of the file', () => {
  it('the fixture: the container says 12 s, the picture and the sound 6 s', () => {
    const probed = ffprobeJson(videoChaptersPastEnd(6, 12, 'fixture.mp4'));
    expect(Number(probed.format.duration)).toBe(12);
    const media = probed.streams.filter((s) => ['video', 'audio'].includes(s.codec_type));
    expect(media.map((s) => Number(s.duration))).toEqual([6, 6]);
  });

  it.each([
    ['audio', 6],
    ['file', null],
  ] as [Send, number | null][])(
    'sending the %s: estimated, listed and offered again at what is charged',
    async (send, sentSeconds) => {
      const engine = engineFor(sb, tempDir('home'));
      const source = videoChaptersPastEnd(6, 12, `chapitres après la fin ${send}.mp4`);
      try {
        const batch = { inputs: [source], to: ['es', 'fr'], send, outDir: tempDir('out') };
        const estimate = await engine.api.estimate(batch);
        const { added } = await engine.api.add(batch);
        const sources = await engine.api.listSources({ offset: 0, limit: 10 });
        expect(await engine.run(quickRun(2))).toBe('done');
        const jobs = (await allJobs(engine.api)).filter((j) => added.includes(j.id));
        expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
        const charged = jobs.map((j) => j.creditsCharged ?? 0);
        if (sentSeconds !== null) expect(charged).toEqual([sentSeconds, sentSeconds]);
        const perLanguage = charged[0] ?? 0;
        expect(estimate.files[0]).toMatchObject({
          creditsPerLanguage: perLanguage,
          durationSeconds: perLanguage,
          sends: { what: send },
        });
        expect(estimate.credits).toBe(2 * perLanguage);
        // The queue's length, and what "Dub again" says a language costs (its estimatedCredits).
        expect(sources.sources.find((s) => s.source === source)?.durationSeconds).toBe(perLanguage);
        expect(jobs.map((j) => j.estimatedCredits)).toEqual(charged);
      } finally {
        await engine.close();
      }
    },
  );
});

/**
 * A video made on the audio path whose very bytes are already under its plain name (a second data folder
 * dubbing the same talk into the same folder, or a queue restored from an older backup) is taken where it
 * is, never kept twice as `(2)`. The job's history must then name the file the job has, not the `(2)` it
 * removed: a user looks for the file the history names.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 1, balance: 100_000 });
});
afterAll(() => sb.stop());

/** Dubs `talk` into Spanish on the audio path from a data folder of its own; the job as it ended. */
async function dubFromNewHome(talk: string, subtitles: ('vtt' | 'srt')[] = ['vtt']) {
  const engine = engineFor(sb, tempDir('home'));
  try {
    const { added } = await engine.api.add({ inputs: [talk], to: ['es'], send: 'audio', subtitles });
    await engine.run(quickRun(1));
    return await engine.api.getJob({ id: added[0] ?? 0 });
  } finally {
    await engine.close();
  }
}

describe('the rebuild’s line in the history', () => {
  it('names the file the job kept when the same bytes were already there', async () => {
    const talk = join(tempDir('talks'), 'talk.mp4');
    copyFileSync(videoMp4(3, 'history-name.mp4'), talk);
    const first = await dubFromNewHome(talk);
    const second = await dubFromNewHome(talk);
    for (const job of [first, second]) expect(job.state, job.error?.message).toBe('completed');
    const video = second.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
    // The premise: the second data folder's video is the first one's file, taken where it was.
    expect(video).toBe(first.outputs.find((o) => o.type === 'translated_mp4')?.path);
    const rebuilt = second.history.find((h) => h.event === 'rebuilt')?.reason ?? '';
    const named = /made (.+?) here/.exec(rebuilt)?.[1] ?? rebuilt;
    expect(named, rebuilt).toBe(video);
    expect(existsSync(named), rebuilt).toBe(true);
  }, 60_000);

  it('a SubRip file of the very same bytes is taken where it is too, never kept twice as (2)', async () => {
    const folder = tempDir('talks');
    const talk = join(folder, 'talk.mp4');
    copyFileSync(videoMp4(3, 'history-name-srt.mp4'), talk);
    const first = await dubFromNewHome(talk, ['vtt', 'srt']);
    const second = await dubFromNewHome(talk, ['vtt', 'srt']);
    const srtOf = (job: typeof first) => job.outputs.find((o) => o.type === 'translated_subtitle_srt')?.path;
    expect(srtOf(first)).toBe(join(folder, 'talk.es.srt'));
    expect(srtOf(second)).toBe(join(folder, 'talk.es.srt'));
    expect(readdirSync(folder).filter((f) => f.includes('(2)'))).toEqual([]);
  }, 60_000);
});

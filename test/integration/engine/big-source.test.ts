/**
 * A source over the v2 upload limit (1 GiB) whose sound is a few KiB (issue 34): the limit is checked against
 * what is sent. The source is a real MP4 made long with a sparse tail (its samples are all at the front, so
 * ffprobe and ffmpeg read it as a user's big file, and the disk holds a few KiB), named with a space.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { locateMediaTools } from '../../../electron/media-tools/locate';
import { planSends } from '../../../electron/engine/app/batches/send-plan';
import { overUploadLimit } from '../../../electron/engine/app/batches/upload-limit';
import { probeFile } from '../../../electron/engine/media/probe';
import { ffprobeJson, videoMd5, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

/** The trial's file: 2.0 GiB, over the limit by half again. */
const BIG = 2_132_043_110;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

async function bigVideo(name: string): Promise<string> {
  const path = join(tempDir('big'), name);
  await copyFile(videoMp4(4, 'big-source-4s.mp4'), path);
  await truncate(path, BIG);
  return path;
}

describe('a source over the v2 upload limit', () => {
  it('is dubbed on the audio path: only its sound is sent, and each language keeps its picture bit for bit', async () => {
    const engine = engineFor(sb, tempDir('home'));
    const out = tempDir('out');
    const big = await bigVideo('long twenty.mp4');
    const batch = { inputs: [big], to: ['es', 'fr'], outDir: out, send: 'audio' as const };
    try {
      const e = await engine.api.estimate(batch);
      expect(e.files[0]?.problem).toBeNull();
      expect(e.files[0]?.sends).toMatchObject({ what: 'audio', why: null });
      expect(e.files[0]?.sends?.bytes).toBeLessThan(1024 * 1024);
      expect(e.jobs).toBe(2);
      const { added, refused } = await engine.api.add(batch);
      expect(refused).toEqual([]);
      expect(added).toHaveLength(2);
      const before = new Set(startedDubs(sb).map((d) => d.id));
      expect(await engine.run(quickRun(2))).toBe('done');
      const jobs = (await allJobs(engine.api)).filter((j) => added.includes(j.id));
      expect(jobs.map((j) => [j.state, j.error?.message ?? null])).toEqual([
        ['completed', null],
        ['completed', null],
      ]);
      // The service got the sound the probe found in it, never the 2 GiB.
      for (const d of startedDubs(sb).filter((x) => !before.has(x.id)))
        expect(ffprobeJson(d.uploadPath).streams.map((st) => st.codec_type)).toEqual(['audio']);
      for (const lang of ['es', 'fr'])
        expect(videoMd5(join(out, `long twenty.${lang}.mp4`))).toBe(videoMd5(big));
    } finally {
      await engine.close();
    }
  });

  it('sending the whole file: refused before anything is sent, naming the way that fits', async () => {
    const engine = engineFor(sb, tempDir('home'));
    const big = await bigVideo('long twenty whole.mp4');
    try {
      const before = startedDubs(sb).length;
      const r = await engine.api.add({ inputs: [big], to: ['es', 'fr'], send: 'file' });
      expect(r.added).toEqual([]);
      expect(r.refused).toEqual([
        {
          input: big,
          error: {
            code: 'too-large',
            message: `${big}: 2.0 GiB (2,132,043,110 bytes) is over the 1.0 GiB upload limit of the v2 API.`,
            remedy:
              'Send only its sound instead (--send audio, or "Only the sound" in the Send choice), or split or compress it first.',
          },
        },
      ]);
      expect(startedDubs(sb).length).toBe(before);
      // v1 and legacy state no limit: the whole file is theirs to take.
      const v1 = await engine.api.estimate({ inputs: [big], to: ['es'], send: 'file', api: 'v1' });
      expect(v1.files[0]?.problem).toBeNull();
    } finally {
      await engine.close();
    }
  });

  it('where the audio path falls back to the whole file (no ffmpeg), the limit is the whole file’s, said so', async () => {
    const big = await probeFile(await bigVideo('long twenty no tools.mp4'));
    const dir = tempDir('no-tools');
    const plan = await planSends(
      [big],
      { send: 'audio', api: 'v2' },
      locateMediaTools({ from: [dir], env: { PATH: dir } }),
    );
    const refused = overUploadLimit(big, plan.bySource.get(big.path), 'v2');
    expect(refused?.toJSON()).toEqual({
      code: 'too-large',
      message: `${big.path}: 2.0 GiB (2,132,043,110 bytes) is over the 1.0 GiB upload limit of the v2 API, and the whole file would be sent: no ffmpeg was found to take its sound alone.`,
      remedy:
        'Install ffmpeg (or set DUBDESK_FFMPEG to it) so only its sound is sent, or split or compress it first.',
    });
  });
});

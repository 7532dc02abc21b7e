/**
 * QC describes the file the user is handed. Sending the sound alone (the default), that is the video made
 * here: the dubbed sound cut or padded to the picture and encoded to AAC, which can measure several LU and
 * dB of true peak away from the MP3 the service sent. Sending the whole file, it is the service's own video.
 * Each figure must be what `ffmpeg -i delivered -map 0:a -af ebur128=peak=true` says of the delivered file.
 */
import { copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QcJson, StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { ebur128Measure, speechVideo } from '../../helpers/deliver-media';
import { ffprobeJson } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  // French runs 4 s past the picture, its last line louder; German is 24 dB louder and clipped.
  sb = await startSandbox({ pipelineSeconds: 0.3, faults: { badDubs: { fr: ['long'], de: ['loud'] } } });
});
afterAll(() => sb.stop());

type Job = StatusJson['jobs'][number];
const video = (j: Job | undefined) => j?.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
const soundSeconds = (path: string) =>
  Number(ffprobeJson(path).streams.find((s) => s.codec_type === 'audio')?.duration);

/** The job's QC figures against an independent ebur128 pass over the file it names as measured. */
function expectFiguresOf(job: Job | undefined, delivered: string) {
  const typed = ebur128Measure(delivered);
  const said = { integrated: job?.qc?.loudness.integrated, truePeak: job?.qc?.loudness.truePeak };
  const off = (a: number | null | undefined, b: number) => Math.abs((a ?? 99) - b);
  expect(
    off(said.integrated, typed.integrated),
    `${job?.destLang}: ${JSON.stringify({ said, typed })}`,
  ).toBeLessThanOrEqual(0.1);
  expect(
    off(said.truePeak, typed.truePeak),
    `${job?.destLang}: ${JSON.stringify({ said, typed })}`,
  ).toBeLessThanOrEqual(0.1);
}

async function dubbed(args: string[], name: string) {
  const work = tempDir('dubdesk-qc-delivered-');
  const source = join(work, name);
  copyFileSync(speechVideo(12, name), source);
  const env = envFor(sb, join(work, 'home'));
  const r = await runCli(['dub', source, ...args, '--poll-interval', '0.2'], env);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
  return { r, env, work, jobs: status.jobs };
}

describe('QC measures the file the user is handed', () => {
  it('sending the sound alone: each dub is measured in the video made here, which QC names', async () => {
    const { r, env, jobs } = await dubbed(['--to', 'es,fr,de', '--send', 'audio'], 'conférence d’été.mp4');
    expect(r.code, r.stderr).toBe(0);
    const [es, fr, de] = ['es', 'fr', 'de'].map((l) => jobs.find((j) => j.destLang === l));
    expect([es, fr, de].map((j) => j?.state)).toEqual(['completed', 'completed', 'completed']);
    // The figures first: the French and German ones are what the video made here really has.
    for (const job of [fr, de, es]) expectFiguresOf(job, video(job));
    for (const job of [es, fr, de])
      expect(job?.qc?.measured).toMatchObject({ path: video(job), kind: 'rebuilt' });
    expect(es?.qc?.verdict).toBe('pass');
    expect(es?.qc?.measured?.fit).toBeNull();

    // French: the video holds the picture's 12 s of it; the 4 s past the end, and their louder line, are cut.
    expect(soundSeconds(video(fr))).toBeCloseTo(12, 1);
    expect(fr?.qc?.measured?.fit?.how).toBe('cut');
    expect(fr?.qc?.measured?.fit?.seconds).toBeCloseTo(4, 1);
    expect(fr?.qc?.durationDelta).toBeCloseTo(4, 1);
    const length = fr?.qc?.problems.find((p) => p.code === 'length');
    expect(length?.severity).toBe('fail');
    expect(length?.message).toMatch(
      /^the dub's sound is (3\.9\d|4\.0\d) s longer than the source's sound \(1[56]\.\d\d s against 12\.\d\d s\): conférence d’été\.fr\.mp4 cuts its last (3\.9\d|4\.0\d) s at the picture's end$/,
    );

    // German: clipped in the MP3; the AAC encode of it peaks elsewhere, and that is the peak reported.
    expect(de?.qc?.problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['loudness', 'true-peak', 'clipping']),
    );

    const qc = await runCli(['qc'], env);
    expect(qc.stdout).toContain(`  measured: ${video(fr)}, the video made here (the dub cut by 4.0`);
    expect(qc.stdout).toContain(`  measured: ${video(es)}, the video made here\n`);
    const json = QcJson.parse(JSON.parse((await runCli(['qc', '--json', String(fr?.id)], env)).stdout));
    expect(json.jobs[0]?.qc?.measured).toEqual({
      path: video(fr),
      kind: 'rebuilt',
      fit: { how: 'cut', seconds: expect.closeTo(4, 1) as number },
    });
  });

  it('sending the whole file: the service’s own video is measured, and named as such', async () => {
    const { r, env, jobs } = await dubbed(['--to', 'de', '--send', 'file'], 'keynote whole.mp4');
    expect(r.code, r.stderr).toBe(0);
    const [de] = jobs;
    expect(basename(video(de))).toBe('keynote whole.de.mp4');
    expectFiguresOf(de, video(de));
    expect(de?.qc?.measured).toEqual({ path: video(de), kind: 'downloaded', fit: null });
    const qc = await runCli(['qc', String(de?.id)], env);
    expect(qc.stdout).toContain(`  measured: ${video(de)}, as the service sent it\n`);
  });
});

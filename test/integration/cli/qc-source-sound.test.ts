import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { chaptersPastEnd, soundEndsEarly } from '../../helpers/deliver-media';
import { ffprobeJson } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  // Dubs into French come out 4 s short (a real fault QC must still see); the others keep the source's sound.
  sb = await startSandbox({ pipelineSeconds: 0.3, faults: { badDubs: { fr: ['short'] } } });
});
afterAll(() => sb.stop());

const seconds = (s: string | undefined) => Number(s);

async function dubbed(source: string, to: string) {
  const env = envFor(sb, join(tempDir('dubdesk-qc-sound-home-'), 'home'));
  const r = await runCli(['dub', source, '--to', to, '--poll-interval', '0.2'], env);
  const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
  const qc = await runCli(['qc'], env);
  return { r, jobs: status.jobs, qc };
}

describe("QC measures a dub's length against the source's sound, the part that was dubbed", () => {
  it('a video whose sound stops 3 s before its picture: the dub of its sound passes; a short dub is said against that sound', async () => {
    const source = soundEndsEarly(10, 7, 'audio finit tôt.mp4');
    const probed = ffprobeJson(source);
    expect(seconds(probed.format.duration)).toBeCloseTo(10, 0);
    expect(seconds(probed.streams.find((s) => s.codec_type === 'audio')?.duration)).toBeCloseTo(7, 0);

    const { r, jobs, qc } = await dubbed(source, 'es,fr');
    expect(r.code, r.stderr).toBe(0);
    const es = jobs.find((j) => j.destLang === 'es');
    const fr = jobs.find((j) => j.destLang === 'fr');
    expect(es?.qc?.verdict, JSON.stringify(es?.qc)).toBe('pass');
    expect(Math.abs(es?.qc?.durationDelta ?? 99)).toBeLessThan(0.5);
    expect(qc.stdout).toMatch(/audio finit tôt\.mp4 → es: QC passes/);
    expect(qc.stdout).not.toMatch(/→ es[^\n]*\n\s+fail/);
    // The short one: 4 s short of the 7 s that were dubbed, and the words say what was compared.
    expect(fr?.qc?.verdict).toBe('fail');
    expect(fr?.qc?.durationDelta).toBeCloseTo(-4, 0);
    expect(qc.stdout).toMatch(
      /fail: the dub's sound is (3\.9\d|4\.0\d) s shorter than the source's sound \([23]\.\d\d s against 7\.\d\d s\)/,
    );
  });

  it('an MP4 whose chapters run to 16 s over 8 s of streams: both dubs pass', async () => {
    const source = chaptersPastEnd(8, 16, 'chapitres après la fin.mp4');
    const probed = ffprobeJson(source);
    expect(seconds(probed.format.duration)).toBeCloseTo(16, 0);
    expect(seconds(probed.streams.find((s) => s.codec_type === 'audio')?.duration)).toBeCloseTo(8, 0);

    const { r, jobs, qc } = await dubbed(source, 'es,de');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/QC FAILS/);
    expect(jobs.map((j) => j.qc?.verdict)).toEqual(['pass', 'pass']);
    expect(qc.code).toBe(0);
    expect(qc.stdout).not.toMatch(/shorter/);
  });
});

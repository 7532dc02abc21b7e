import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QcJson, StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { loudnormMeasure, talkVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';
import { ffprobeJson, videoMd5 } from '../../helpers/media';
import { mp4Tracks } from '../../helpers/mp4-tracks';

let sb: Sandbox;
beforeAll(async () => {
  // Dubs into French come out 4 s short: QC must say so; the Spanish ones are good.
  sb = await startSandbox({ pipelineSeconds: 0.3, faults: { badDubs: { fr: ['short'] } } });
});
afterAll(() => sb.stop());

interface Probed {
  codec_type: string;
  codec_name: string;
  tags?: Record<string, string>;
  disposition?: Record<string, number>;
}
const streams = (path: string) => ffprobeJson(path).streams as unknown as Probed[];
/** ffprobe leaves out a Matroska track's `und`: absent is `und` (package-media.test reads the bytes). */
const lang = (s: Probed) => s.tags?.language ?? 'und';

/** A user's folder with the talk in it (results go beside it, as with no --out). */
function setup(name = 'keynote.mp4') {
  const work = tempDir('dubdesk-deliver-');
  const source = join(work, name);
  copyFileSync(talkVideo(10), source);
  return { work, source, env: envFor(sb, join(work, 'home')) };
}

describe('dub --package mkv --subtitles vtt,srt: one file with every language, SRT beside, QC on each dub', () => {
  it('makes the package, the SRT files, and flags the short dub in status --json and dubdesk qc', async () => {
    const { work, source, env } = setup();
    const r = await runCli(
      [
        'dub',
        source,
        '--to',
        'es,fr',
        '--package',
        'mkv',
        '--subtitles',
        'vtt,srt',
        '--poll-interval',
        '0.2',
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    // The run's last lines say what was handed on, and that a dub failed its QC though it completed.
    expect(r.stderr).toContain(`package: ${join(work, 'keynote.multi.mkv')} (es, fr)`);
    expect(r.stderr).toMatch(/! #\d+ keynote\.mp4 → fr: QC FAILS: the dub's sound is \d\.\d\d s shorter/);
    expect(r.stderr).not.toMatch(/! #\d+ keynote\.mp4 → es/);
    expect(
      readdirSync(work)
        .filter((f) => f !== 'home')
        .sort(),
    ).toEqual([
      'keynote.es.mp4',
      'keynote.es.srt',
      'keynote.es.vtt',
      'keynote.fr.mp4',
      'keynote.fr.srt',
      'keynote.fr.vtt',
      'keynote.mp4',
      'keynote.multi.mkv',
    ]);

    const pkg = join(work, 'keynote.multi.mkv');
    expect(videoMd5(pkg)).toBe(videoMd5(source));
    const all = streams(pkg);
    const audio = all.filter((s) => s.codec_type === 'audio');
    expect(audio.map(lang)).toEqual(['und', 'spa', 'fre']);
    expect(audio.filter((s) => s.disposition?.default === 1)).toHaveLength(1);
    expect(audio[0]?.disposition?.default).toBe(1);
    const subs = all.filter((s) => s.codec_type === 'subtitle');
    expect(subs.map(lang)).toEqual(['spa', 'fre']);

    // SRT beside the WebVTT, timing and text kept.
    const vtt = readFileSync(join(work, 'keynote.es.vtt'), 'utf8');
    const srt = readFileSync(join(work, 'keynote.es.srt'), 'utf8');
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:04,000\n\[Spanish\] Sandbox subtitle/);
    expect(vtt).toContain('00:00:00.000 --> 00:00:04.000\n[Spanish] Sandbox subtitle');

    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    const es = status.jobs.find((j) => j.destLang === 'es');
    const fr = status.jobs.find((j) => j.destLang === 'fr');
    expect(es?.qc?.verdict).toBe('pass');
    expect(fr?.qc?.verdict).toBe('fail');
    expect(fr?.qc?.durationDelta).toBeLessThan(-3.5);
    expect(fr?.qc?.problems.map((p) => p.code)).toContain('length');
    // The loudness said is an EBU R128 measurement: another meter agrees within 1 LU.
    const independent = loudnormMeasure(join(work, 'keynote.es.mp4'));
    expect(Math.abs((es?.qc?.loudness.integrated ?? 0) - independent.integrated)).toBeLessThanOrEqual(1);
    // The SRT is one of the job's files.
    expect(es?.outputs.map((o) => o.type)).toContain('translated_subtitle_srt');
    // The table a person scans says it beside the state, not only the JSON.
    const table = (await runCli(['status'], env)).stdout.split('\n');
    expect(table.find((l) => l.startsWith(`${fr?.id} `))).toMatch(/ fr +v2 +completed, QC failed +100%/);
    expect(table.find((l) => l.startsWith(`${es?.id} `))).toMatch(/ es +v2 +completed +100%/);

    const qc = await runCli(['qc'], env);
    expect(qc.code).toBe(1);
    expect(qc.stdout).toMatch(/→ fr: QC FAILS \(length -\d\.\d\d s/);
    expect(qc.stdout).toMatch(/fail: the dub's sound is \d\.\d\d s shorter than the source/);
    expect(qc.stdout).toMatch(/→ es: QC passes/);
    expect(qc.stdout).toContain('A failed QC hides nothing');
    // The command to type, with the job's own number in it.
    expect(qc.stdout).toContain(`Dub it again (\`dubdesk again ${fr?.id}\`, charged again)`);
    const json = QcJson.parse(JSON.parse((await runCli(['qc', '--json', String(fr?.id)], env)).stdout));
    expect(json.jobs.map((j) => j.qc?.verdict)).toEqual(['fail']);
  });

  it('sending the sound alone: the videos made here are packaged, and the short dub is flagged though its video was padded to length', async () => {
    const { work, source, env } = setup('sound only.mp4');
    const r = await runCli(
      ['dub', source, '--to', 'es,fr', '--send', 'audio', '--package', 'mkv', '--poll-interval', '0.2'],
      env,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(0);
    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    const es = status.jobs.find((j) => j.destLang === 'es');
    const fr = status.jobs.find((j) => j.destLang === 'fr');
    // The French video was made here the source's length: its sound, as the service sent it, is 4 s short.
    expect(Number(ffprobeJson(join(work, 'sound only.fr.mp4')).format.duration)).toBeCloseTo(10, 0);
    expect(fr?.qc?.verdict).toBe('fail');
    expect(fr?.qc?.durationDelta).toBeLessThan(-3.5);
    expect(es?.qc?.verdict).toBe('pass');
    const independent = loudnormMeasure(join(work, 'sound only.es.mp4'));
    expect(Math.abs((es?.qc?.loudness.integrated ?? 0) - independent.integrated)).toBeLessThanOrEqual(1);

    const pkg = join(work, 'sound only.multi.mkv');
    expect(videoMd5(pkg)).toBe(videoMd5(source));
    const audio = streams(pkg).filter((s) => s.codec_type === 'audio');
    expect(audio.map(lang)).toEqual(['und', 'spa', 'fre']);
    expect(
      streams(pkg)
        .filter((s) => s.codec_type === 'subtitle')
        .map(lang),
    ).toEqual(['spa', 'fre']);
    // The dubbed sounds fetched to make the videos are gone once QC has measured them.
    const staged = join(work, 'home', 'staging', '.audio-path', 'dubbed');
    expect(existsSync(staged) ? readdirSync(staged) : []).toEqual([]);
  });

  it('a language added later makes the package again; the one before goes to previous/', async () => {
    const { work, source, env } = setup('talk.mp4');
    const first = await runCli(
      ['dub', source, '--to', 'es', '--package', 'mkv', '--poll-interval', '0.2'],
      env,
    );
    expect(first.code).toBe(0);
    expect(streams(join(work, 'talk.multi.mkv')).filter((s) => s.codec_type === 'audio')).toHaveLength(2);

    const later = await runCli(
      ['dub', source, '--to', 'de', '--package', 'mkv', '--default-audio', 'de', '--poll-interval', '0.2'],
      env,
    );
    expect(later.code).toBe(0);
    const audio = streams(join(work, 'talk.multi.mkv')).filter((s) => s.codec_type === 'audio');
    expect(audio.map(lang)).toEqual(['und', 'spa', 'ger']);
    expect(audio.map((s) => s.disposition?.default)).toEqual([0, 0, 1]);
    expect(existsSync(join(work, 'previous', 'talk.multi.mkv'))).toBe(true);
    expect(
      streams(join(work, 'previous', 'talk.multi.mkv')).filter((s) => s.codec_type === 'audio'),
    ).toHaveLength(2);
  });

  it('--subtitles srt alone: the SRT is kept, the WebVTT it came from is not, and the MP4 package carries it', async () => {
    const { work, source, env } = setup('alone.mp4');
    const r = await runCli(
      ['dub', source, '--to', 'es', '--subtitles', 'srt', '--package', 'mp4', '--poll-interval', '0.2'],
      env,
    );
    expect(r.code).toBe(0);
    expect(
      readdirSync(work)
        .filter((f) => f !== 'home')
        .sort(),
    ).toEqual(['alone.es.mp4', 'alone.es.srt', 'alone.mp4', 'alone.multi.mp4']);
    const subs = streams(join(work, 'alone.multi.mp4')).filter((s) => s.codec_type === 'subtitle');
    expect(subs.map((s) => [s.codec_name, lang(s)])).toEqual([['mov_text', 'spa']]);
    // Off until the viewer picks it, as in the MKV: the track header's enabled flag too, which players read.
    expect(subs.map((s) => s.disposition?.default)).toEqual([0]);
    expect(mp4Tracks(join(work, 'alone.multi.mp4')).find((t) => t.handler === 'sbtl')?.enabled).toBe(false);
    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    expect(status.jobs[0]?.outputs.map((o) => o.type).sort()).toEqual([
      'translated_mp4',
      'translated_subtitle_srt',
    ]);
    expect(status.jobs[0]?.qc?.problems).toEqual([]);
    expect(status.jobs[0]?.qc?.verdict).toBe('pass');
  });

  it('refuses a default sound that is not one of the batch’s languages, naming it, before anything is sent', async () => {
    const { source, env } = setup('refused.mp4');
    const r = await runCli(
      ['add', source, '--to', 'es,fr', '--package', 'mkv', '--default-audio', 'de'],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the default sound 'de' is not one of this batch's languages (es, fr)");
    expect(r.stderr).toContain('Pick original, or one of es, fr.');
  });
});

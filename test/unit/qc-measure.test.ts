import { describe, expect, it } from 'vitest';
import { checkDub, sourceFacts } from '../../electron/engine/media/qc/check-dub';
import { measureAudio } from '../../electron/engine/media/qc/measure';
import { spoilMedia } from '../../electron/sandbox/bad-dubs';
import { ProcessPool } from '../../electron/sandbox/process-pool';
import { copyAs, loudnormMeasure, talkVideo, withAudioFilter } from '../helpers/deliver-media';
import { videoMov } from '../helpers/media';
import { TOOLSETS } from '../helpers/toolsets';

const pool = new ProcessPool({ ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, 2);
/** A dub the sandbox spoiled on purpose, as it spoils a dub it serves. */
async function sandboxBad(src: string, kind: 'short' | 'loud' | 'silence', seconds: number): Promise<string> {
  const copy = copyAs(src, `dub-${kind}.mp4`);
  await spoilMedia(copy, [kind], seconds, pool);
  return copy;
}

const codes = (qc: { problems: { code: string }[] }) => qc.problems.map((p) => p.code);

describe.each(TOOLSETS)('QC of a dub, measured by %s', (_name, tools) => {
  const talk = talkVideo(12);

  it('a good dub passes, its loudness within 1 LU of an independent EBU R128 meter', async () => {
    const t = await tools();
    const measured = await measureAudio(t, talk);
    const independent = loudnormMeasure(talk);
    expect(Math.abs((measured.integratedLufs ?? 0) - independent.integrated)).toBeLessThanOrEqual(1);
    expect(Math.abs((measured.truePeakDbtp ?? 0) - independent.truePeak)).toBeLessThanOrEqual(1);
    expect(measured.durationSeconds).toBeCloseTo(12, 1);

    const qc = await checkDub(
      t,
      { media: talk, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(qc.problems).toEqual([]);
    expect(qc.verdict).toBe('pass');
    expect(Math.abs(qc.durationDelta ?? 99)).toBeLessThan(0.1);
    expect(qc.loudness.integrated).toBeCloseTo(measured.integratedLufs ?? 0, 5);
  });

  it('a dub the sandbox made 4 s short fails on its length', async () => {
    const t = await tools();
    const dub = await sandboxBad(talk, 'short', 12);
    const qc = await checkDub(
      t,
      { media: dub, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(qc.verdict).toBe('fail');
    expect(qc.durationDelta).toBeCloseTo(-4, 0);
    const length = qc.problems.find((p) => p.code === 'length');
    expect(length).toMatchObject({ severity: 'fail' });
    expect(length?.message).toMatch(/^the dub's sound is (3\.9\d|4\.0\d) s shorter than the source/);
    expect(length?.remedy).toMatch(/`dubdesk again ID`/);
    expect(length?.remedyInApp).toMatch(/Dub again shows its cost first/);
  });

  it('a dub 1 s long warns on its length, and only on that', async () => {
    const t = await tools();
    const dub = withAudioFilter(talk, 'apad=pad_dur=1', 'dub-longer.mp4');
    const qc = await checkDub(
      t,
      { media: dub, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(codes(qc)).toEqual(['length']);
    expect(qc.verdict).toBe('warn');
    expect(qc.problems[0]?.message).toMatch(/1\.\d\d s longer/);
  });

  it('a dub the sandbox made too loud fails on loudness and clipping', async () => {
    const t = await tools();
    const dub = await sandboxBad(talk, 'loud', 12);
    const qc = await checkDub(
      t,
      { media: dub, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(qc.verdict).toBe('fail');
    expect(codes(qc)).toEqual(expect.arrayContaining(['loudness', 'true-peak', 'clipping']));
    expect(qc.problems.find((p) => p.code === 'loudness')).toMatchObject({ severity: 'fail' });
    expect(qc.loudness.integrated).toBeGreaterThan(-10);
    expect(Math.abs((qc.loudness.integrated ?? 0) - loudnormMeasure(dub).integrated)).toBeLessThanOrEqual(1);
  });

  it('a silence the sandbox put where the original speaks is flagged; one the original has too is not', async () => {
    const t = await tools();
    const dub = await sandboxBad(talk, 'silence', 12);
    const facts = await sourceFacts(t, talk, 12);
    const qc = await checkDub(t, { media: dub, subtitles: null }, facts, 'broadcast');
    const silence = qc.problems.find((p) => p.code === 'silence');
    expect(silence?.message).toMatch(/silent from 0:03 to 0:09 \(6\.\d s\) where the original has sound/);

    // The original itself pauses there (music stopped, a scene without words): the dub may too.
    const quietOriginal = withAudioFilter(talk, "volume=enable='between(t,2.5,9.5)':volume=0", 'pausing.mp4');
    const quietFacts = await sourceFacts(t, quietOriginal, 12);
    const again = await checkDub(t, { media: dub, subtitles: null }, quietFacts, 'broadcast');
    expect(codes(again)).not.toContain('silence');
  });

  it('a silent dub fails as having no sound, once', async () => {
    const t = await tools();
    const dub = withAudioFilter(talk, 'volume=0', 'dub-silent.mp4');
    const qc = await checkDub(
      t,
      { media: dub, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(codes(qc)).toEqual(['no-audio']);
    expect(qc.loudness).toMatchObject({ integrated: null, truePeak: null });
  });

  it('the web target: a dub at -14 LUFS passes it, and is far above broadcast', async () => {
    const t = await tools();
    const dub = withAudioFilter(talk, 'volume=9dB', 'dub-web.mp3');
    const facts = await sourceFacts(t, talk, 12);
    const web = await checkDub(t, { media: dub, subtitles: null }, facts, 'web');
    expect(web.problems.filter((p) => p.code === 'loudness')).toEqual([]);
    expect(web.target).toEqual({ name: 'web', lufs: -14, tolerance: 2 });
    const broadcast = await checkDub(t, { media: dub, subtitles: null }, facts, 'broadcast');
    expect(broadcast.problems.find((p) => p.code === 'loudness')?.message).toMatch(
      /LU above the broadcast \(EBU R128\) target of -23 LUFS \(±2\)/,
    );
  });

  it('a web-loud source: its dub, as loud, fails broadcast, and QC says the source itself is that loud and which target fits', async () => {
    const t = await tools();
    // About -14 LUFS, as most web video is; the dub a shade louder still, as a service hands it back.
    const source = withAudioFilter(talk, 'volume=9dB', 'web-talk.mp4');
    const dub = withAudioFilter(talk, 'volume=9.2dB', 'web-talk.es.mp4');
    const facts = await sourceFacts(t, source, 12);
    expect(Math.abs((facts.lufs ?? 0) - loudnormMeasure(source).integrated)).toBeLessThanOrEqual(1);
    const qc = await checkDub(t, { media: dub, subtitles: null }, facts, 'broadcast');
    expect(qc.loudness.source).toBe(facts.lufs);
    const loud = qc.problems.find((p) => p.code === 'loudness');
    expect(loud?.message).toMatch(
      /^integrated loudness -1[345]\.\d LUFS, target -23 ±2, broadcast \(EBU R128\); the source itself is at -1[345]\.\d LUFS: the dub is as loud as its original$/,
    );
    // Dubbing it again would give the same: the remedy names the target that fits, by its real names.
    expect(loud?.remedy).toMatch(/--loudness web/);
    expect(loud?.remedyInApp).toMatch(/“Check against the web target” below/);
    expect(loud?.remedy).not.toMatch(/Dub it again/);

    // A source at the broadcast level and a dub far louder: the dub is what is off, and it says so.
    const quiet = await sourceFacts(t, talk, 12);
    const louder = await checkDub(t, { media: dub, subtitles: null }, quiet, 'broadcast');
    const off = louder.problems.find((p) => p.code === 'loudness');
    expect(off?.message).toMatch(
      /LU above the broadcast \(EBU R128\) target of -23 LUFS \(±2\); the source is at -2\d\.\d LUFS$/,
    );
    expect(off?.message).not.toMatch(/the source itself/);
  });

  it('a dub with no sound track fails as such, once; an original with none has nobody speaking', async () => {
    const t = await tools();
    const mute = videoMov(3);
    const qc = await checkDub(
      t,
      { media: mute, subtitles: null },
      await sourceFacts(t, talk, 12),
      'broadcast',
    );
    expect(codes(qc)).toEqual(['no-audio']);
    expect(qc.problems[0]?.message).toBe('the dubbed media has no sound track');
    expect(await sourceFacts(t, mute, 3)).toEqual({
      seconds: 3,
      lengthOf: 'file',
      fileSeconds: 3,
      silences: [{ start: 0, end: 3 }],
      lufs: null,
    });
  });

  it('a file that is not media is said, not thrown', async () => {
    const t = await tools();
    const notMedia = copyAs(talk, 'dub.mp4');
    await import('node:fs/promises').then((fs) => fs.writeFile(notMedia, 'not a video'));
    const qc = await checkDub(
      t,
      { media: notMedia, subtitles: null },
      { seconds: 12, lengthOf: 'file', fileSeconds: 12, silences: null, lufs: null },
      'broadcast',
    );
    expect(qc.problems).toEqual([
      expect.objectContaining({
        code: 'unchecked',
        message: expect.stringMatching(/^the dubbed media could not be checked: ffmpeg failed/),
      }),
    ]);
  });
});

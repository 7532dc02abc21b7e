/**
 * Cue times past a day, and absurd ones a hostile service may send, in the SubRip made from its WebVTT: a
 * time within the longest dub the service measures (48 h) is written as it is, hours and all (ffmpeg reads
 * it back to the millisecond); one past it belongs to no dub, so no SubRip is made of those subtitles and
 * QC fails them, saying which cue and why. Never a wrapped or garbled time.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSubtitles } from '../../electron/engine/media/qc/subtitle-checks';
import { SubtitleConversionError, webVttToSrt } from '../../electron/engine/media/subtitles/srt';
import { tempDir } from '../helpers/temp-dir';

const vttOf = (...cues: [string, string][]) =>
  ['WEBVTT', '', ...cues.flatMap(([from, to], i) => [`${from} --> ${to}`, `cue ${i + 1}`, ''])].join('\n');

/** Each cue's start and end as ffprobe (an independent reader) reads the SubRip file. */
function ffmpegCues(srt: string): { start: number; end: number }[] {
  const path = join(tempDir('srt-long-'), 'check.srt');
  writeFileSync(path, srt);
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'packet=pts_time,duration_time', '-of', 'json', path],
  ]).toString();
  return (JSON.parse(out) as { packets: { pts_time: string; duration_time: string }[] }).packets.map((p) => ({
    start: Number(p.pts_time),
    end: Math.round((Number(p.pts_time) + Number(p.duration_time)) * 1000) / 1000,
  }));
}

describe('SubRip times past a day', () => {
  it('a cue at 25 h and one ending at 47:59:59.999 are written as they are, hours and all', () => {
    const srt = webVttToSrt(
      vttOf(
        ['00:00:01.000', '00:00:02.000'],
        ['25:00:00.000', '26:30:00.500'],
        ['47:59:58.000', '47:59:59.999'],
      ),
    );
    expect(srt.split('\n').filter((l) => l.includes('-->'))).toEqual([
      '00:00:01,000 --> 00:00:02,000',
      '25:00:00,000 --> 26:30:00,500',
      '47:59:58,000 --> 47:59:59,999',
    ]);
    expect(ffmpegCues(srt)).toEqual([
      { start: 1, end: 2 },
      { start: 90_000, end: 95_400.5 },
      { start: 172_798, end: 172_799.999 },
    ]);
  });

  it.each([
    ['100 hours', '100:00:00.000', '100:00:01.000'],
    ['a hostile 99,999,999,999 hours', '99999999999:00:00.000', '99999999999:00:01.000'],
  ])('a cue at %s: no SubRip is made, and QC fails the subtitles naming the cue', (_what, from, to) => {
    const vtt = vttOf(['00:00:01.000', '00:00:02.000'], [from, to]);
    expect(() => webVttToSrt(vtt, 'Movie.es.vtt')).toThrow(SubtitleConversionError);
    expect(() => webVttToSrt(vtt, 'Movie.es.vtt')).toThrow(
      /^Movie\.es\.vtt: cue 2 is timed past the 48 hours the longest dub lasts/,
    );
    const problems = checkSubtitles(vtt, 20);
    const absurd = problems.find((p) => p.severity === 'fail');
    expect(absurd).toMatchObject({ code: 'subtitles-past-end' });
    expect(absurd?.message).toMatch(
      /^1 cue is timed past 48 hours \(the first: cue 2\), the longest a dub lasts/,
    );
    for (const p of problems) expect(p.message).not.toMatch(/NaN|e\+|Infinity/);
  });
});

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSubtitles } from '../../electron/engine/media/qc/subtitle-checks';
import { SubtitleConversionError, webVttToSrt } from '../../electron/engine/media/subtitles/srt';
import { spoilSubtitles } from '../../electron/sandbox/bad-dubs';
import { webVtt } from '../../electron/sandbox/media';
import { tempDir } from '../helpers/temp-dir';

/** The sandbox's subtitles for a 20 s dub into Spanish: a cue every 4 s. */
const good = webVtt(20, 'es', 'Sandbox subtitle (not a real translation), cue');
const codes = (problems: { code: string }[]) => problems.map((p) => p.code);

describe('QC of subtitles: the sandbox breaks them on purpose, each break is said', () => {
  it('the sandbox’s good subtitles pass', () => {
    expect(checkSubtitles(good, 20)).toEqual([]);
  });

  it('a cue whose timing does not parse: unreadable, with its line', () => {
    const problems = checkSubtitles(spoilSubtitles(good, ['subtitles-unreadable'], 20), 20);
    expect(codes(problems)).toEqual(['subtitles-unreadable']);
    expect(problems[0]).toMatchObject({ severity: 'fail' });
    expect(problems[0]?.message).toMatch(/do not read as WebVTT \(first, line \d+: /);
  });

  it('not WebVTT at all: unreadable, nothing else', () => {
    const problems = checkSubtitles('<html>502 Bad Gateway</html>', 20);
    expect(codes(problems)).toEqual(['subtitles-unreadable']);
    expect(problems[0]?.message).toMatch(/cannot be read as WebVTT \(line 1: No valid signature/);
  });

  it('two cues swapped: out of order', () => {
    const problems = checkSubtitles(spoilSubtitles(good, ['subtitles-order'], 20), 20);
    expect(codes(problems)).toEqual(['subtitles-order']);
    expect(problems[0]?.message).toMatch(/^1 cue starts before the cue above it \(first at line \d+\)/);
  });

  it('a cue 5 s past the end of the media', () => {
    const problems = checkSubtitles(spoilSubtitles(good, ['subtitles-past-end'], 20), 20);
    expect(codes(problems)).toEqual(['subtitles-past-end']);
    expect(problems[0]?.message).toBe('1 cue runs past the end of the media (0:20): the first ends at 0:28');
  });

  it('a cue faster than 20 characters a second', () => {
    const problems = checkSubtitles(spoilSubtitles(good, ['subtitles-fast'], 20), 20);
    expect(codes(problems)).toEqual(['subtitles-fast']);
    expect(problems[0]?.message).toMatch(
      /^1 cue asks for more than 20 characters a second \(the fastest: 37 a second, at 0:00\)/,
    );
  });

  it('tags and line breaks are not read: a cue at exactly 20 characters a second passes', () => {
    // 40 characters in 2 s, once its tags are gone and its two lines read as one.
    const vtt =
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Ana><b>Twenty characters</b> and\nthen some more.</v>\n';
    expect(checkSubtitles(vtt, 10)).toEqual([]);
  });
});

/** What ffmpeg (an independent reader) sees in a SubRip file: each cue's start, end and text. */
function ffmpegCues(srt: string): { start: number; end: number }[] {
  const path = join(tempDir('srt-'), 'check.srt');
  writeFileSync(path, srt);
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'packet=pts_time,duration_time',
    '-of',
    'json',
    path,
  ]).toString();
  return (JSON.parse(out) as { packets: { pts_time: string; duration_time: string }[] }).packets.map((p) => ({
    start: Number(p.pts_time),
    end: Number(p.pts_time) + Number(p.duration_time),
  }));
}

describe('SRT from the service’s WebVTT', () => {
  const vtt = [
    '\uFEFFWEBVTT - Spanish',
    '',
    'STYLE',
    '::cue { color: yellow }',
    '',
    'NOTE made by the service',
    '',
    'intro',
    '00:00:00.000 --> 00:00:04.000 align:start position:10%',
    '<v Ana>Hola <b>mundo</b> &amp; más &lt;3',
    '',
    '00:04.500 --> 00:00:08.250',
    'Segunda línea',
    '<i>con dos líneas</i>',
    '',
    '3',
    '01:00:08.250 --> 01:00:09.001',
    'Última <c.yellow>palabra</c> <00:00:08.500>ñandú — 日本語',
    '',
  ].join('\r\n');

  it('keeps every cue’s timing to the millisecond and its text, with the tags SubRip knows', () => {
    const srt = webVttToSrt(vtt);
    expect(srt).toBe(
      [
        '1',
        '00:00:00,000 --> 00:00:04,000',
        'Hola <b>mundo</b> & más <3',
        '',
        '2',
        '00:00:04,500 --> 00:00:08,250',
        'Segunda línea',
        '<i>con dos líneas</i>',
        '',
        '3',
        '01:00:08,250 --> 01:00:09,001',
        'Última palabra ñandú — 日本語',
        '',
      ].join('\n'),
    );
    expect(ffmpegCues(srt)).toEqual([
      { start: 0, end: 4 },
      { start: 4.5, end: 8.25 },
      { start: 3608.25, end: 3609.001 },
    ]);
  });

  it('the sandbox’s subtitles convert cue for cue', () => {
    const cues = ffmpegCues(webVttToSrt(good));
    expect(cues).toHaveLength(5);
    expect(cues.at(-1)).toEqual({ start: 16, end: 20 });
  });

  it('a file that is not WebVTT is refused with its name and why', () => {
    expect(() => webVttToSrt('not subtitles', 'Movie.es.vtt')).toThrow(SubtitleConversionError);
    expect(() => webVttToSrt('not subtitles', 'Movie.es.vtt')).toThrow(
      'Movie.es.vtt could not be read as WebVTT (line 1: No valid signature. (File needs to start with "WEBVTT".))',
    );
  });
});

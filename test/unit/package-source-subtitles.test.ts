import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePackage } from '../../electron/engine/media/ffmpeg/package';
import { keptSourceSubtitles } from '../../electron/engine/media/ffmpeg/source-subtitles';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { webVttToSrt } from '../../electron/engine/media/subtitles/srt';
import { webVtt } from '../../electron/sandbox/media';
import { writeFileSync } from 'node:fs';
import { withAudioFilter } from '../helpers/deliver-media';
import { ffprobeJson, videoMd5 } from '../helpers/media';
import { subtitledVideo } from '../helpers/subtitled-media';
import { tempDir } from '../helpers/temp-dir';
import { TOOLSETS } from '../helpers/toolsets';

interface Probed {
  codec_type: string;
  codec_name: string;
  tags?: Record<string, string>;
  disposition?: Record<string, number>;
}
const subtitlesOf = (path: string) =>
  (ffprobeJson(path).streams as unknown as Probed[]).filter((s) => s.codec_type === 'subtitle');
const lang = (s: Probed) => s.tags?.language ?? s.tags?.LANGUAGE ?? 'und';
const title = (s: Probed) => s.tags?.title ?? s.tags?.TITLE ?? s.tags?.handler_name;

function dubSrt(seconds: number): string {
  const path = join(tempDir('dub-subs-'), 'talk.es.srt');
  writeFileSync(path, webVttToSrt(webVtt(seconds, 'es', 'cue')));
  return path;
}

// A film's release carries its own subtitles (the original's dialogue, forced signs): the one file with
// every language keeps them, or a media server's user loses the English subtitles the source had.
describe.each(TOOLSETS)("the source's own subtitles in the package, muxed by %s", (_name, tools) => {
  const packaged = async (source: string, container: 'mkv' | 'mp4') => {
    const t = await tools();
    const es = withAudioFilter(source, 'volume=-2dB', 'film.es.mp3');
    const part = join(tempDir('package-'), `film.multi.${container}.part`);
    await writePackage(t, {
      source,
      sourceStreams: await probeStreams(t.ffprobe, source),
      sourceLang: 'en',
      dubs: [{ lang: 'es', media: es, srt: dubSrt(4) }],
      container,
      defaultAudio: 'original',
      part,
    });
    return part;
  };

  it("MKV: the source's SubRip and styled ASS as they are, tagged and titled, forced kept, before the dub's", async () => {
    const source = subtitledVideo(4, 'film.mkv');
    const part = await packaged(source, 'mkv');
    expect(videoMd5(part)).toBe(videoMd5(source));
    const subs = subtitlesOf(part);
    expect(subs.map((s) => s.codec_name)).toEqual(['subrip', 'ass', 'subrip']);
    expect(subs.map(lang)).toEqual(['eng', 'ger', 'spa']);
    expect(subs.map(title)).toEqual(['English', 'German (signs)', 'Spanish']);
    expect(subs.map((s) => s.disposition?.forced)).toEqual([0, 1, 0]);
    expect(subs.map((s) => s.disposition?.default)).toEqual([0, 0, 0]);
  });

  it("MP4: the source's timed text as mov_text, tagged and titled, then the dub's", async () => {
    const source = subtitledVideo(4, 'film.mp4');
    const part = await packaged(source, 'mp4');
    const subs = subtitlesOf(part);
    expect(subs.map((s) => s.codec_name)).toEqual(['mov_text', 'mov_text', 'mov_text']);
    expect(subs.map(lang)).toEqual(['eng', 'ger', 'spa']);
    expect(subs.map(title)).toEqual(['English', 'German (signs)', 'Spanish']);
  });

  it('MP4 from an MKV source: its styled ASS becomes timed text, as an MP4 holds no other', async () => {
    const source = subtitledVideo(4, 'film-for-mp4.mkv');
    const part = await packaged(source, 'mp4');
    const subs = subtitlesOf(part);
    expect(subs.map((s) => s.codec_name)).toEqual(['mov_text', 'mov_text', 'mov_text']);
    expect(subs.map(lang)).toEqual(['eng', 'ger', 'spa']);
  });
});

describe('which of the source subtitles a package keeps', () => {
  const stream = (codec: string) => ({
    index: 3,
    codec,
    language: 'eng',
    title: null,
    forced: false,
    hearingImpaired: true,
  });
  it('an MP4 leaves picture subtitles out (they cannot become text unread); a Matroska file keeps them as they are', () => {
    const source = ['hdmv_pgs_subtitle', 'dvd_subtitle', 'subrip', 'eia_608'].map(stream);
    expect(keptSourceSubtitles(source, 'mp4').map((k) => [k.stream.codec, k.codec])).toEqual([
      ['subrip', 'mov_text'],
    ]);
    expect(keptSourceSubtitles(source, 'mkv').map((k) => [k.stream.codec, k.codec])).toEqual([
      ['hdmv_pgs_subtitle', 'copy'],
      ['dvd_subtitle', 'copy'],
      ['subrip', 'copy'],
    ]);
  });
  it('a track with no title of its own is named by its language; its flags for the hearing impaired kept', () => {
    const [kept] = keptSourceSubtitles([stream('mov_text')], 'mkv');
    expect(kept).toMatchObject({ codec: 'srt', title: 'English', disposition: 'hearing_impaired' });
  });
});

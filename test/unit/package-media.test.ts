import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PackageRefusedError,
  packageExtension,
  writePackage,
  type PackageInput,
} from '../../electron/engine/media/ffmpeg/package';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { webVttToSrt } from '../../electron/engine/media/subtitles/srt';
import { webVtt } from '../../electron/sandbox/media';
import { tempDir } from '../helpers/temp-dir';
import { talkVideo, withAudioFilter } from '../helpers/deliver-media';
import { audioMp3, ffprobeJson, videoMd5, videoMov, videoSounding, videoWebm } from '../helpers/media';
import { mp4Tracks } from '../helpers/mp4-tracks';
import { TOOLSETS } from '../helpers/toolsets';

interface Probed {
  index: number;
  codec_type: string;
  codec_name: string;
  tags?: Record<string, string>;
  disposition?: Record<string, number>;
}
const streamsOf = (path: string) => ffprobeJson(path).streams as unknown as Probed[];
/** ffprobe leaves out a Matroska track's `und` (the file holds it: see `matroskaLanguages`). */
const lang = (s: Probed) => s.tags?.language ?? s.tags?.LANGUAGE ?? 'und';
/** Matroska's title, or an MP4's handler name (what players show there). */
const title = (s: Probed) => s.tags?.title ?? s.tags?.TITLE ?? s.tags?.handler_name;

/** The TrackLanguage elements (EBML id 0x22B59C) of a Matroska file, read from its bytes. */
function matroskaLanguages(path: string): string[] {
  const bytes = readFileSync(path);
  const out: string[] = [];
  for (let at = bytes.indexOf(LANGUAGE_ID); at >= 0; at = bytes.indexOf(LANGUAGE_ID, at + 1)) {
    const size = (bytes[at + 3] ?? 0) & 0x7f; // a one-byte EBML size (0x80 | n)
    out.push(bytes.subarray(at + 4, at + 4 + size).toString('latin1'));
  }
  return out;
}
const LANGUAGE_ID = Buffer.from([0x22, 0xb5, 0x9c]);

function srtFile(langCode: string, seconds: number): string {
  const path = join(tempDir('subs-'), `talk.${langCode}.srt`);
  writeFileSync(path, webVttToSrt(webVtt(seconds, langCode, 'cue')));
  return path;
}

describe.each(TOOLSETS)('one file with every language, muxed by %s', (_name, tools) => {
  const source = talkVideo(6, 'keynote.mp4');
  const es = withAudioFilter(source, 'asetrate=48000*1.05,aresample=48000', 'keynote.es.mp4');
  const fr = withAudioFilter(source, 'volume=-2dB', 'keynote.fr.mp3');

  const input = async (over: Partial<PackageInput>): Promise<PackageInput> => ({
    source,
    sourceStreams: await probeStreams((await tools()).ffprobe, source),
    sourceLang: 'auto',
    dubs: [
      { lang: 'es', media: es, srt: srtFile('es', 6) },
      { lang: 'fr', media: fr, srt: srtFile('fr', 6) },
    ],
    container: 'mkv',
    defaultAudio: 'original',
    part: join(tempDir('package-'), 'keynote.multi.mkv.part'),
    ...over,
  });

  it('MKV: the picture bit for bit, the original first, each dub tagged and titled, one default, SubRip tagged', async () => {
    const t = await tools();
    const inp = await input({});
    await writePackage(t, inp);
    const streams = streamsOf(inp.part);
    expect(videoMd5(inp.part)).toBe(videoMd5(source));
    const audio = streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map(lang)).toEqual(['und', 'spa', 'fre']);
    // Video, then the three sounds, then the two subtitles: the original's `und` is written, not left out.
    expect(matroskaLanguages(inp.part)).toEqual(['und', 'und', 'spa', 'fre', 'spa', 'fre']);
    expect(audio.map(title)).toEqual(['Original', 'Spanish (dubbed)', 'French (dubbed)']);
    expect(audio.map((s) => s.disposition?.default)).toEqual([1, 0, 0]);
    expect(audio.map((s) => s.codec_name)).toEqual(['aac', 'aac', 'mp3']);
    const subs = streams.filter((s) => s.codec_type === 'subtitle');
    expect(subs.map(lang)).toEqual(['spa', 'fre']);
    expect(subs.map((s) => s.codec_name)).toEqual(['subrip', 'subrip']);
    expect(subs.map((s) => s.disposition?.default)).toEqual([0, 0]);
  });

  it('MP4: mov_text subtitles, the default the user chose, the source language named', async () => {
    const t = await tools();
    const inp = await input({
      container: 'mp4',
      defaultAudio: 'es',
      sourceLang: 'en',
      part: join(tempDir('package-'), 'keynote.multi.mp4.part'),
    });
    await writePackage(t, inp);
    const streams = streamsOf(inp.part);
    expect(videoMd5(inp.part)).toBe(videoMd5(source));
    const audio = streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map(lang)).toEqual(['eng', 'spa', 'fre']);
    expect(audio.map((s) => s.disposition?.default)).toEqual([0, 1, 0]);
    expect(audio.map(title)).toEqual(['English (original)', 'Spanish (dubbed)', 'French (dubbed)']);
    const subs = streams.filter((s) => s.codec_type === 'subtitle');
    expect(subs.map((s) => [s.codec_name, lang(s)])).toEqual([
      ['mov_text', 'spa'],
      ['mov_text', 'fre'],
    ]);
    // No subtitle track plays by itself: ffmpeg's MP4 muxer enables the first one when none is default,
    // and QuickTime and VLC then show it. The track headers say so, whatever ffprobe makes of them.
    expect(subs.map((s) => s.disposition?.default)).toEqual([0, 0]);
    expect(mp4Tracks(inp.part)).toEqual([
      { handler: 'vide', enabled: true },
      { handler: 'soun', enabled: false },
      { handler: 'soun', enabled: true },
      { handler: 'soun', enabled: false },
      { handler: 'sbtl', enabled: false },
      { handler: 'sbtl', enabled: false },
    ]);
  });

  it('MP4 of a source with no picture (.m4a): the default sound enabled, the subtitle tracks off', async () => {
    const t = await tools();
    const mp3 = audioMp3(6, 'podcast.mp3');
    const inp = await input({
      source: mp3,
      sourceStreams: await probeStreams(t.ffprobe, mp3),
      container: 'mp4',
      part: join(tempDir('package-'), 'podcast.multi.m4a.part'),
    });
    await writePackage(t, inp);
    expect(streamsOf(inp.part).map((s) => s.disposition?.default)).toEqual([1, 0, 0, 0, 0]);
    expect(mp4Tracks(inp.part).map((k) => k.enabled)).toEqual([true, false, false, false, false]);
  });

  it('a dub with no subtitles adds its sound only; a default naming no dub of the batch falls back to the original', async () => {
    const t = await tools();
    const inp = await input({ dubs: [{ lang: 'es', media: es, srt: null }], defaultAudio: 'de' });
    await writePackage(t, inp);
    const streams = streamsOf(inp.part);
    expect(streams.filter((s) => s.codec_type === 'subtitle')).toEqual([]);
    expect(streams.filter((s) => s.codec_type === 'audio').map((s) => s.disposition?.default)).toEqual([
      1, 0,
    ]);
  });

  it('the picture is the default video track whatever the source says: a WebM, an MP4, a MOV source', async () => {
    const t = await tools();
    const sources = [videoWebm(3, 'screen recording.webm'), source, videoMov(2)];
    for (const [i, picture] of sources.entries()) {
      const container = i === 1 ? 'mp4' : 'mkv';
      const inp = await input({
        source: picture,
        sourceStreams: await probeStreams(t.ffprobe, picture),
        container,
        part: join(tempDir('package-'), `picture-${i}.multi.${container}.part`),
      });
      await writePackage(t, inp);
      const video = streamsOf(inp.part).filter((s) => s.codec_type === 'video');
      expect({ picture, default: video.map((s) => s.disposition?.default) }).toEqual({
        picture,
        default: [1],
      });
    }
  });

  it('MP4 of a source whose sound is Opus (as screen recorders and MKV exports have it): made, the original as AAC', async () => {
    const t = await tools();
    const opus = videoSounding('opus', 3, 'opus-sound');
    const inp = await input({
      source: opus,
      sourceStreams: await probeStreams(t.ffprobe, opus),
      container: 'mp4',
      part: join(tempDir('package-'), 'opus-sound.multi.mp4.part'),
    });
    await writePackage(t, inp);
    expect(videoMd5(inp.part)).toBe(videoMd5(opus));
    const audio = streamsOf(inp.part).filter((s) => s.codec_type === 'audio');
    expect(audio.map((s) => s.codec_name)).toEqual(['aac', 'aac', 'mp3']);
  });

  it("the original keeps the language its sound says (a phone's or an export's tag) when the batch detected it", async () => {
    const t = await tools();
    const tagged = join(tempDir('tagged-'), 'tagged.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      source,
      '-c',
      'copy',
      '-metadata:s:a:0',
      'language=eng',
      tagged,
    ]);
    for (const container of ['mkv', 'mp4'] as const) {
      const inp = await input({
        source: tagged,
        sourceStreams: await probeStreams(t.ffprobe, tagged),
        container,
        part: join(tempDir('package-'), `tagged.multi.${container}.part`),
      });
      await writePackage(t, inp);
      const audio = streamsOf(inp.part).filter((s) => s.codec_type === 'audio');
      expect({ container, languages: audio.map(lang) }).toEqual({
        container,
        languages: ['eng', 'spa', 'fre'],
      });
    }
  });

  it('a picture MP4 cannot hold is refused in words, and nothing is left behind', async () => {
    const t = await tools();
    const webm = videoWebm(3, 'clip.webm');
    const part = join(tempDir('package-'), 'clip.multi.mp4.part');
    const inp = await input({
      source: webm,
      sourceStreams: await probeStreams(t.ffprobe, webm),
      container: 'mp4',
      part,
    });
    await expect(writePackage(t, inp)).rejects.toThrow(PackageRefusedError);
    await expect(writePackage(t, inp)).rejects.toThrow(/cannot be packaged as MP4: its picture is vp8/);
    expect(existsSync(part)).toBe(false);
  });

  it('a source with no picture: an audio package (.mka, .m4a)', async () => {
    const t = await tools();
    const mp3 = audioMp3(6, 'podcast.mp3');
    const streams = await probeStreams(t.ffprobe, mp3);
    expect(packageExtension('mkv', streams.video !== null)).toBe('mka');
    expect(packageExtension('mp4', streams.video !== null)).toBe('m4a');
    const inp = await input({ source: mp3, sourceStreams: streams });
    await writePackage(t, inp);
    const probed = streamsOf(inp.part);
    expect(probed.map((s) => s.codec_type)).toEqual(['audio', 'audio', 'audio', 'subtitle', 'subtitle']);
  });
});

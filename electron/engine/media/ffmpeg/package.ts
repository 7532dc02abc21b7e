import { rm } from 'node:fs/promises';
import { languageName } from '../../../../shared/languages';
import type { DefaultAudio } from '../../../../shared/contract/deliver';
import { toolTimeout } from './extract';
import { languageTag, tagName } from './language-tag';
import { fromService } from './service-input';
import type { MediaTools } from '../../../media-tools/locate';
import { subtitleTracksOff } from './mp4-subtitles-off';
import { keptSourceSubtitles } from './source-subtitles';
import { MP4_VIDEO } from './rebuild';
import { runTool } from '../../../media-tools/run';
import type { AudioStream, MediaStreams, PlanStreams } from './streams';

/**
 * Sound an MP4 holds as it is; anything else (PCM, FLAC in old players, Vorbis…) becomes AAC there. Not
 * Opus: the shipped ffmpeg writes it in an MP4 only as an experimental feature (it refuses without
 * `-strict`), and QuickTime and editors do not play it there.
 */
const MP4_AUDIO = new Set(['aac', 'mp3', 'ac3', 'eac3', 'alac']);

export interface PackagedDub {
  lang: string;
  /** The dubbed media (video or audio): its first audio stream goes in as it is. */
  media: string;
  /** The dub's subtitles as SubRip (converted from the service's WebVTT), or null. */
  srt: string | null;
}

export interface PackageInput {
  source: string;
  sourceStreams: MediaStreams;
  /** The language the source speaks (`auto` or unknown: `und`). */
  sourceLang: string;
  dubs: readonly PackagedDub[];
  container: 'mkv' | 'mp4';
  defaultAudio: DefaultAudio;
  /** Written here (the caller's `.part`), whole or not at all. */
  part: string;
}

export class PackageRefusedError extends Error {
  override name = 'PackageRefusedError';
}

/** The extension of a package: `.mkv`/`.mp4`, or `.mka`/`.m4a` for a source with no picture. */
export function packageExtension(container: 'mkv' | 'mp4', hasVideo: boolean): string {
  if (container === 'mkv') return hasVideo ? 'mkv' : 'mka';
  return hasVideo ? 'mp4' : 'm4a';
}

/** Why a source's picture or sound cannot go into an MP4 as it is; null when it can. */
export function mp4Refusal(streams: Pick<PlanStreams, 'video'>): string | null {
  if (streams.video && !MP4_VIDEO.has(streams.video.codec))
    return `its picture is ${streams.video.codec}, which an MP4 cannot hold without re-encoding it`;
  return null;
}

/**
 * Why a source's picture cannot go into a Matroska file as it is; null when it can. A phone stores its
 * picture sideways with a display matrix saying how to turn it: an MP4 keeps that, and ffmpeg writes no
 * Matroska equivalent, so the package would play on its side.
 */
export function mkvRefusal(streams: Pick<MediaStreams, 'video'>): string | null {
  const turned = streams.video?.rotation ?? 0;
  if (turned % 360 === 0) return null;
  return `its picture is turned ${Math.abs(turned)}° (as a phone records it), which a Matroska file cannot say: it would play on its side`;
}

/** The title players show for a track: "Spanish (dubbed)", "English (original)". */
export const dubTitle = (lang: string) => `${languageName(lang)} (dubbed)`;
export function originalTitle(lang: string, tagged: string | null = null): string {
  if (lang !== 'auto' && languageTag(lang) !== 'und') return `${languageName(lang)} (original)`;
  // The batch did not say: the language the track's own tag names, as players would show it.
  return tagged ? `${tagName(tagged)} (original)` : 'Original';
}

/** The title of a source's sound track that was not dubbed: its own, else its language and number. */
function otherTitle(a: AudioStream, all: readonly AudioStream[]): string {
  if (a.title) return a.title;
  const number = all.findIndex((b) => b.index === a.index) + 1;
  return `${a.language ? tagName(a.language) : 'Original'} (original, track ${number})`;
}

/** The original's language tag: the one the batch said, else the one its sound's own tag names, else `und`. */
function originalTag(sourceLang: string, sound: Pick<AudioStream, 'language'>): string {
  const said = languageTag(sourceLang);
  return said !== 'und' ? said : (sound.language ?? 'und');
}

/** The ffmpeg arguments of a package (exported for the tests that read them). */
export function packageArgs(input: PackageInput): string[] {
  const { sourceStreams: s, dubs, container } = input;
  const args = ['-nostdin', '-v', 'error', '-y', '-i', input.source];
  for (const d of dubs) args.push(...fromService(d.media));
  const withSubs = dubs.filter((d) => d.srt !== null);
  for (const d of withSubs) args.push('-f', 'srt', '-i', d.srt ?? '');
  const sourceSubs = keptSourceSubtitles(s.subtitles, container);
  // The source's other sound tracks (a commentary, a second language) go after the dubs, as they are.
  const others = s.audios.filter((a) => a.index !== s.audio?.index);
  if (s.video) args.push('-map', `0:${s.video.index}`);
  if (s.audio) args.push('-map', `0:${s.audio.index}`);
  dubs.forEach((_, i) => args.push('-map', `${i + 1}:a:0`));
  for (const a of others) args.push('-map', `0:${a.index}`);
  for (const sub of sourceSubs) args.push('-map', `0:${sub.stream.index}`);
  withSubs.forEach((_, i) => args.push('-map', `${dubs.length + 1 + i}:0`));
  args.push('-map_metadata', '0', '-map_chapters', '0', '-c', 'copy');
  if (container === 'mp4' && s.video?.codec === 'hevc') args.push('-tag:v', 'hvc1');
  if (container === 'mp4' && s.audio && !MP4_AUDIO.has(s.audio.codec))
    args.push('-c:a:0', 'aac', '-b:a:0', '192k');
  const othersFrom = (s.audio ? 1 : 0) + dubs.length;
  others.forEach((a, i) => {
    if (container === 'mp4' && !MP4_AUDIO.has(a.codec))
      args.push(`-c:a:${othersFrom + i}`, 'aac', `-b:a:${othersFrom + i}`, '192k');
  });
  const dubSubCodec = container === 'mp4' ? 'mov_text' : 'srt';
  const subtitles = [
    ...sourceSubs,
    ...withSubs.map((d) => ({
      codec: dubSubCodec,
      language: languageTag(d.lang),
      title: languageName(d.lang),
      disposition: '0',
    })),
  ];

  const audio: { lang: string; title: string; isDefault: boolean }[] = [];
  if (s.audio)
    audio.push({
      lang: originalTag(input.sourceLang, s.audio),
      title: originalTitle(input.sourceLang, s.audio.language),
      isDefault: input.defaultAudio === 'original',
    });
  for (const d of dubs)
    audio.push({
      lang: languageTag(d.lang),
      title: dubTitle(d.lang),
      isDefault: input.defaultAudio === d.lang,
    });
  for (const a of others)
    audio.push({ lang: a.language ?? 'und', title: otherTitle(a, s.audios), isDefault: false });
  // Exactly one default: the one asked for, else the first track (the original's, or the first dub's).
  if (!audio.some((a) => a.isDefault) && audio[0]) audio[0].isDefault = true;
  // A track's title: Matroska's own field; an MP4 keeps it as the track's handler name, which players show.
  const titleKey = container === 'mp4' ? 'handler_name' : 'title';
  audio.forEach((a, i) =>
    args.push(
      `-metadata:s:a:${i}`,
      `language=${a.lang}`,
      `-metadata:s:a:${i}`,
      `${titleKey}=${a.title}`,
      `-disposition:a:${i}`,
      a.isDefault ? 'default' : '0',
    ),
  );
  subtitles.forEach((sub, i) => {
    args.push(`-c:s:${i}`, sub.codec, `-disposition:s:${i}`, sub.disposition);
    if (sub.language) args.push(`-metadata:s:s:${i}`, `language=${sub.language}`);
    if (sub.title) args.push(`-metadata:s:s:${i}`, `${titleKey}=${sub.title}`);
  });
  // The picture plays by default: a copy keeps what the source says, and a WebM or MKV often says it does
  // not (ffmpeg's own Matroska muxer writes FlagDefault 0).
  if (s.video) args.push('-disposition:v:0', 'default');
  if (container === 'mp4') args.push('-movflags', '+faststart');
  args.push('-f', container === 'mp4' ? 'mp4' : 'matroska', input.part);
  return args;
}

/**
 * One file with every language: the source's picture copied bit for bit, its sound first (the track that
 * was dubbed), then each dub's sound as it came, then the source's other sound tracks as they are, each tagged with its language and a title, exactly one of them the default; then the
 * source's own subtitles (see keptSourceSubtitles) and each dub's (SubRip in Matroska, mov_text in MP4),
 * tagged. Nothing is sent anywhere.
 */
export async function writePackage(
  tools: MediaTools,
  input: PackageInput,
  signal?: AbortSignal,
): Promise<void> {
  if (input.container === 'mp4') {
    const refused = mp4Refusal(input.sourceStreams);
    if (refused)
      throw new PackageRefusedError(
        `${input.source} cannot be packaged as MP4: ${refused}; package it as MKV instead`,
      );
  } else {
    const refused = mkvRefusal(input.sourceStreams);
    if (refused)
      throw new PackageRefusedError(
        `${input.source} cannot be packaged as MKV: ${refused}; package it as MP4 instead`,
      );
  }
  await rm(input.part, { force: true });
  try {
    await runTool(tools.ffmpeg, packageArgs(input), {
      timeoutMs: toolTimeout(input.sourceStreams.durationSeconds),
      signal,
    });
    // No subtitle plays by itself, as in the Matroska package (see subtitleTracksOff).
    if (input.container === 'mp4') await subtitleTracksOff(input.part);
  } catch (e) {
    await rm(input.part, { force: true });
    throw e;
  }
}

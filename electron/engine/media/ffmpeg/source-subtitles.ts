import { tagName } from './language-tag';
import type { SubtitleStream } from './streams';

/** Timed text: ffmpeg turns any of these into another text format (SubRip, mov_text). */
const TEXT = new Set(['subrip', 'ass', 'ssa', 'webvtt', 'mov_text', 'text']);
/** What a Matroska file holds as it is: the text formats it names, and the pictures of discs and broadcast. */
const MATROSKA_AS_IS = new Set([
  'subrip',
  'ass',
  'ssa',
  'webvtt',
  'hdmv_pgs_subtitle',
  'dvd_subtitle',
  'dvb_subtitle',
]);

export interface KeptSubtitle {
  stream: SubtitleStream;
  /** The encoder it takes: `copy`, or the text format the container holds. */
  codec: 'copy' | 'srt' | 'mov_text';
  /** Its language tag and the name players show; null where the source gave neither. */
  language: string | null;
  title: string | null;
  /** Its disposition: `forced`, `hearing_impaired`, both, or `0` (never the default: none plays by itself). */
  disposition: string;
}

function encoderFor(codec: string, container: 'mkv' | 'mp4'): KeptSubtitle['codec'] | null {
  if (container === 'mp4') return TEXT.has(codec) ? 'mov_text' : null;
  if (MATROSKA_AS_IS.has(codec)) return 'copy';
  return TEXT.has(codec) ? 'srt' : null;
}

/**
 * The source's own subtitles a package keeps, in the source's order: every one a Matroska file can hold
 * (styled ASS and disc pictures as they are), and in an MP4 the timed text as mov_text. Picture subtitles
 * (PGS, VobSub) cannot become text without reading them, so an MP4 package leaves them out (docs/cli.md).
 */
export function keptSourceSubtitles(
  subtitles: readonly SubtitleStream[],
  container: 'mkv' | 'mp4',
): KeptSubtitle[] {
  return subtitles.flatMap((stream) => {
    const codec = encoderFor(stream.codec, container);
    if (!codec) return [];
    const flags = [stream.forced && 'forced', stream.hearingImpaired && 'hearing_impaired'].filter(Boolean);
    return [
      {
        stream,
        codec,
        language: stream.language,
        title: stream.title ?? (stream.language ? tagName(stream.language) : null),
        disposition: flags.length ? flags.join('+') : '0',
      },
    ];
  });
}

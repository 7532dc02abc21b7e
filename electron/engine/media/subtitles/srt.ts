import subtitle from 'subtitle';
import { SubtitleConversionError } from './conversion-error';
import { parseWebVtt, srtText } from './webvtt';

export { SubtitleConversionError };

/**
 * WebVTT as SubRip: each cue's start and end kept to the millisecond and its text kept (bold, italic and
 * underline as SubRip's own tags; voices, classes and cue settings, which SubRip has no way to say, dropped
 * around their text). Parsed with the W3C's WebVTT parser and written by the `subtitle` package.
 */
export function webVttToSrt(vtt: string, name = 'the subtitles'): string {
  const { cues, errors } = parseWebVtt(vtt);
  if (cues.length === 0)
    throw new SubtitleConversionError(
      `${name} could not be read as WebVTT${errors[0] ? ` (line ${errors[0].line ?? 1}: ${errors[0].message})` : ''}`,
    );
  return subtitle.stringifySync(
    cues.map((c) => ({
      type: 'cue' as const,
      data: { start: Math.round(c.start * 1000), end: Math.round(c.end * 1000), text: srtText(c.nodes) },
    })),
    { format: 'SRT' },
  );
}

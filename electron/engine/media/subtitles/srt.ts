import { MAX_MEASURED_SECONDS } from '../../../../shared/api/common';
import { SubtitleConversionError } from './conversion-error';
import { parseWebVtt, srtText, type WebVttCue } from './webvtt';

export { SubtitleConversionError };

/**
 * The longest a cue may be timed: the longest dub the service measures (48 h). A cue past it belongs to no
 * dub (a hostile or broken answer): its subtitles get no SubRip, and QC fails them (subtitle-checks.ts).
 */
export const MAX_CUE_SECONDS = MAX_MEASURED_SECONDS;

/** Whether a cue's times are ones a dub can have: finite, not negative, within MAX_CUE_SECONDS. */
export const saneCueTimes = (c: Pick<WebVttCue, 'start' | 'end'>): boolean =>
  [c.start, c.end].every((t) => Number.isFinite(t) && t >= 0 && t <= MAX_CUE_SECONDS);

/**
 * A SubRip time, `hh:mm:ss,mmm`, hours in as many digits as they take (two at least). Written here: the
 * `subtitle` package's writer reads the milliseconds as a time of day, so a cue past 24 h wrapped round
 * with its day glued to the milliseconds (`01:00:00,86400000` for 25 h).
 */
export function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

/**
 * WebVTT as SubRip: each cue's start and end kept to the millisecond and its text kept (bold, italic and
 * underline as SubRip's own tags; voices, classes and cue settings, which SubRip has no way to say, dropped
 * around their text). Parsed with the W3C's WebVTT parser; SubRip's blocks (number, times, text, a blank
 * line) written here. Subtitles with a cue timed past any dub's length are refused, naming the cue.
 */
export function webVttToSrt(vtt: string, name = 'the subtitles'): string {
  const { cues, errors } = parseWebVtt(vtt);
  if (cues.length === 0)
    throw new SubtitleConversionError(
      `${name} could not be read as WebVTT${errors[0] ? ` (line ${errors[0].line ?? 1}: ${errors[0].message})` : ''}`,
    );
  const absurd = cues.findIndex((c) => !saneCueTimes(c));
  if (absurd >= 0)
    throw new SubtitleConversionError(
      `${name}: cue ${absurd + 1} is timed past the ${MAX_CUE_SECONDS / 3600} hours the longest dub lasts, so no SubRip is made of it`,
    );
  return cues
    .map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${srtText(c.nodes)}\n`)
    .join('\n');
}

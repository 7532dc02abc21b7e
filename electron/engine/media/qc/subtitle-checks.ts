import type { QcProblem } from '../../../../shared/contract/deliver';
import { parseWebVtt, readText } from '../subtitles/webvtt';
import { clock } from './clock';
import { MAX_CUE_SECONDS, saneCueTimes } from '../subtitles/srt';

/** The fastest a viewer reads comfortably (Netflix's adult limit), in characters a second. */
export const MAX_CPS = 20;
/** A cue may end this much after the media without being "past the end" (a frame, rounding). */
const END_SLACK_SECONDS = 0.1;

/** Dubbing it again: the terminal's command, and the window's button (which shows the cost first). */
const REDO = {
  remedy: `Dub it again (\`dubdesk again ID\`, charged again), or correct the subtitles in an editor.`,
  remedyInApp: 'Dub it again (Dub again shows its cost first), or correct the subtitles in an editor.',
};

/** What the spec's parser says about the order of cues (it sorts them, so the order is read from its errors). */
const OUT_OF_ORDER = /previous cue/i;

/**
 * The subtitle checks of QC: the file reads as WebVTT, its cues are in order, none runs past the end of the
 * media, and none asks for more than MAX_CPS characters a second.
 */
export function checkSubtitles(vtt: string, mediaSeconds: number | null): QcProblem[] {
  const { cues, errors } = parseWebVtt(vtt);
  const problems: QcProblem[] = [];
  const disorder = errors.filter((e) => OUT_OF_ORDER.test(e.message));
  const broken = errors.filter((e) => !OUT_OF_ORDER.test(e.message));
  if (cues.length === 0 || broken.length > 0) {
    const first = broken[0] ?? errors[0];
    problems.push({
      code: 'subtitles-unreadable',
      severity: 'fail',
      message:
        cues.length === 0
          ? `the subtitles cannot be read as WebVTT${first ? ` (line ${first.line ?? 1}: ${first.message})` : ' (no cue in them)'}`
          : `${broken.length} ${broken.length === 1 ? 'place' : 'places'} in the subtitles do not read as WebVTT (first, line ${first?.line ?? 1}: ${first?.message ?? ''}); players may skip those cues`,
      ...REDO,
    });
  }
  if (disorder.length > 0)
    problems.push({
      code: 'subtitles-order',
      severity: 'fail',
      message: `${disorder.length} ${disorder.length === 1 ? 'cue starts' : 'cues start'} before the cue above ${disorder.length === 1 ? 'it' : 'them'} (first at line ${disorder[0]?.line ?? 1}): the cues are out of order`,
      ...REDO,
    });
  // A cue past any dub's length (a hostile or broken answer): no SubRip is made of such subtitles (srt.ts).
  const absurd = cues.map((c, i) => ({ c, number: i + 1 })).filter(({ c }) => !saneCueTimes(c));
  if (absurd.length > 0)
    problems.push({
      code: 'subtitles-past-end',
      severity: 'fail',
      message: `${absurd.length} ${absurd.length === 1 ? 'cue is' : 'cues are'} timed past ${MAX_CUE_SECONDS / 3600} hours (the first: cue ${absurd[0]?.number ?? 1}), the longest a dub lasts: the subtitles are broken, and no SubRip file is made of them`,
      ...REDO,
    });
  if (mediaSeconds !== null) {
    const past = cues.filter((c) => saneCueTimes(c) && c.end > mediaSeconds + END_SLACK_SECONDS);
    const first = past[0];
    if (first)
      problems.push({
        code: 'subtitles-past-end',
        severity: 'warn',
        message: `${past.length} ${past.length === 1 ? 'cue runs' : 'cues run'} past the end of the media (${clock(mediaSeconds)}): the first ends at ${clock(first.end)}`,
        ...REDO,
      });
  }
  const fast = cues
    .filter(saneCueTimes)
    .map((c) => ({ cue: c, cps: cps(readText(c.nodes), c.end - c.start) }))
    .filter((f) => f.cps > MAX_CPS);
  if (fast.length > 0) {
    const fastest = fast.reduce((a, b) => (b.cps > a.cps ? b : a));
    problems.push({
      code: 'subtitles-fast',
      severity: 'warn',
      message: `${fast.length} ${fast.length === 1 ? 'cue asks' : 'cues ask'} for more than ${MAX_CPS} characters a second (the fastest: ${Math.round(fastest.cps)} a second, at ${clock(fastest.cue.start)})`,
      remedy: 'Shorten or lengthen those cues in a subtitle editor before handing them on.',
    });
  }
  return problems;
}

/** Characters a second: line breaks are not read, spaces are. */
function cps(text: string, seconds: number): number {
  const chars = [...text.replace(/\s*\n\s*/g, ' ').trim()].length;
  if (chars === 0) return 0;
  return seconds > 0 ? chars / seconds : Infinity;
}

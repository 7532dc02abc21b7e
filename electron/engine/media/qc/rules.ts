import {
  LOUDNESS_TARGETS,
  verdictOf,
  type LoudnessTarget,
  type Qc,
  type QcFit,
  type QcMeasured,
  type QcProblem,
} from '../../../../shared/contract/deliver';
import { clock } from './clock';
import { fitIn, lengthProblem, lengthUnknown, type LengthOf } from './length-rules';
import { offTarget } from './loudness-rules';
import { LONG_SILENCE_SECONDS, type AudioMeasure, type Silence } from './measure';
import { REDO } from './redo';

export { LENGTH_FAIL_SECONDS, LENGTH_WARN_SECONDS, type LengthOf } from './length-rules';

/** EBU R128's ceiling for the true peak. */
export const TRUE_PEAK_CEILING_DBTP = -1;
/** Clipped: at least this share of samples within 1 dB of full scale, with the peak at full scale. */
const CLIPPED_SHARE = 1e-4;
const CLIPPED_PEAK_DBFS = -0.5;

export interface QcInput {
  /** The sound of the file the user is handed, as measured; null when there is none (subtitles only). */
  audio: AudioMeasure | null;
  /** That file, and whether it is the service's or a video made here; null or absent when none was measured. */
  measured?: Pick<QcMeasured, 'path' | 'kind'> | null;
  /**
   * In a video made here, the dub's own length (the sound it was made from, before it was fitted to the
   * picture); null when that sound is gone. Unused for the service's file, whose sound is the dub's.
   */
  dubSeconds?: number | null;
  /** The media holds no sound at all. */
  noAudioStream?: boolean;
  /** The length the dub's sound is held against (seconds); null when unknown. */
  sourceSeconds: number | null;
  /** What `sourceSeconds` measures: the source's sound (what was dubbed), or the file (default). */
  sourceLengthOf?: LengthOf;
  /** Where the source is silent; null when unknown (then it is taken to sound throughout). */
  sourceSilences: Silence[] | null;
  /** The source's integrated loudness (LUFS); null or absent when unknown. */
  sourceLufs?: number | null;
  /** The subtitle checks' problems (see checkSubtitles). */
  subtitleProblems: QcProblem[];
  target: LoudnessTarget;
  /** Problems found before the measurement (a file gone, a tool that failed). */
  extra?: QcProblem[];
  now?: Date;
  /** The dub's job, named in the command that judges it against the other loudness target. */
  jobId?: number | null;
}

const signed = (n: number, digits = 2) => `${n > 0 ? '+' : ''}${n.toFixed(digits)}`;

function loudnessProblems(
  a: AudioMeasure,
  targetName: LoudnessTarget,
  sourceLufs: number | null,
  jobId: number | null,
): QcProblem[] {
  if (a.integratedLufs === null)
    return [
      {
        code: 'no-audio',
        severity: 'fail',
        message: 'the dub is silent from start to end',
        ...REDO,
      },
    ];
  const out: QcProblem[] = [];
  const off = offTarget(a.integratedLufs, targetName, sourceLufs, jobId);
  if (off) out.push(off);
  if (a.truePeakDbtp !== null && a.truePeakDbtp > TRUE_PEAK_CEILING_DBTP)
    out.push({
      code: 'true-peak',
      severity: 'warn',
      message: `true peak ${signed(a.truePeakDbtp, 1)} dBTP is above the ${TRUE_PEAK_CEILING_DBTP} dBTP ceiling`,
      remedy: 'Lower it with a true-peak limiter when the loudness is set.',
    });
  const share = a.samples > 0 ? a.fullScaleSamples / a.samples : 0;
  if (share >= CLIPPED_SHARE && (a.samplePeakDbfs ?? -Infinity) >= CLIPPED_PEAK_DBFS)
    out.push({
      code: 'clipping',
      severity: 'fail',
      message: `the sound is clipped: ${a.fullScaleSamples} samples (${(share * 100).toFixed(share < 0.01 ? 2 : 0)}%) are at full scale`,
      ...REDO,
    });
  return out;
}

/**
 * The parts of `[start, end]` where the source sounds: its length, in seconds. Past the end of its sound
 * (`soundEnd`, when known) nothing sounds: a picture that runs on after it, where a video made here pads the dub.
 */
function sourceSoundsFor(s: Silence, sourceSilences: Silence[] | null, soundEnd: number | null): number {
  const quietSpans = [
    ...(sourceSilences ?? []),
    ...(soundEnd === null ? [] : [{ start: soundEnd, end: Infinity }]),
  ];
  let quiet = 0;
  for (const q of quietSpans) quiet += Math.max(0, Math.min(s.end, q.end) - Math.max(s.start, q.start));
  return s.end - s.start - quiet;
}

function silenceProblems(
  a: AudioMeasure,
  sourceSilences: Silence[] | null,
  soundEnd: number | null,
): QcProblem[] {
  if (a.integratedLufs === null) return []; // silent throughout: said once, as no-audio
  const long = a.silences.filter(
    (s) =>
      s.end - s.start >= LONG_SILENCE_SECONDS &&
      sourceSoundsFor(s, sourceSilences, soundEnd) >= LONG_SILENCE_SECONDS,
  );
  const first = long[0];
  if (!first) return [];
  const more = long.length > 1 ? ` (and ${long.length - 1} more)` : '';
  return [
    {
      code: 'silence',
      severity: 'warn',
      message: `the dub is silent from ${clock(first.start)} to ${clock(first.end)} (${(first.end - first.start).toFixed(1)} s) where the original has sound${more}: part of the speech may be missing`,
      ...REDO,
    },
  ];
}

interface Lengths {
  durationDelta: number | null;
  fit: QcFit | null;
  problem: QcProblem | null;
}

/**
 * The dub's length against the source's. The service's file holds the dub as it is; a video made here holds
 * it fitted to the picture, so its own length is the sound it was made from, and the fit is read from both.
 */
function lengths(a: AudioMeasure, input: QcInput): Lengths {
  const rebuilt = input.measured?.kind === 'rebuilt' ? input.measured.path : null;
  if (rebuilt !== null && (input.dubSeconds ?? null) === null)
    return { durationDelta: null, fit: null, problem: lengthUnknown(rebuilt) };
  const dubSeconds = rebuilt === null ? a.durationSeconds : (input.dubSeconds ?? a.durationSeconds);
  const fit = rebuilt === null ? null : fitIn(dubSeconds, a.durationSeconds);
  if (input.sourceSeconds === null) return { durationDelta: null, fit, problem: null };
  const delta = Math.round((dubSeconds - input.sourceSeconds) * 1000) / 1000;
  const problem = lengthProblem({
    delta,
    dubSeconds,
    sourceSeconds: input.sourceSeconds,
    of: input.sourceLengthOf ?? 'file',
    rebuilt: rebuilt === null ? null : { path: rebuilt, fit },
  });
  return { durationDelta: delta, fit, problem };
}

/** The verdict on one finished dub, and each problem in words with what to do. */
export function judge(input: QcInput): Qc {
  const problems: QcProblem[] = [...(input.extra ?? [])];
  const a = input.audio;
  let durationDelta: number | null = null;
  let fit: QcFit | null = null;
  if (input.noAudioStream)
    problems.push({
      code: 'no-audio',
      severity: 'fail',
      message: 'the dubbed media has no sound track',
      ...REDO,
    });
  if (a) {
    const length = lengths(a, input);
    ({ durationDelta, fit } = length);
    if (length.problem) problems.push(length.problem);
    const soundEnd = input.sourceLengthOf === 'sound' ? input.sourceSeconds : null;
    problems.push(
      ...loudnessProblems(a, input.target, input.sourceLufs ?? null, input.jobId ?? null),
      ...silenceProblems(a, input.sourceSilences, soundEnd),
    );
  }
  problems.push(...input.subtitleProblems);
  const target = LOUDNESS_TARGETS[input.target];
  return {
    verdict: verdictOf(problems),
    measured: input.measured ? { ...input.measured, fit } : null,
    durationDelta,
    loudness: {
      integrated: a?.integratedLufs ?? null,
      truePeak: a?.truePeakDbtp ?? null,
      source: input.sourceLufs ?? null,
    },
    target: { name: input.target, lufs: target.lufs, tolerance: target.tolerance },
    problems,
    checkedAt: (input.now ?? new Date()).toISOString(),
  };
}

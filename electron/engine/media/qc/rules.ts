import {
  LOUDNESS_TARGETS,
  verdictOf,
  type LoudnessTarget,
  type Qc,
  type QcProblem,
} from '../../../../shared/contract/deliver';
import { clock } from './clock';
import { offTarget } from './loudness-rules';
import { LONG_SILENCE_SECONDS, type AudioMeasure, type Silence } from './measure';

/** Length differences: a look beyond this, a failure beyond the next (seconds). */
export const LENGTH_WARN_SECONDS = 0.5;
export const LENGTH_FAIL_SECONDS = 2;
/** EBU R128's ceiling for the true peak. */
export const TRUE_PEAK_CEILING_DBTP = -1;
/** Clipped: at least this share of samples within 1 dB of full scale, with the peak at full scale. */
const CLIPPED_SHARE = 1e-4;
const CLIPPED_PEAK_DBFS = -0.5;

/** Dubbing it again: the terminal's command, and the window's button (which shows the cost first). */
const REDO = {
  remedy: `Dub it again (\`dubdesk again ID\`, charged again), or check it by ear before handing it on.`,
  remedyInApp: 'Dub it again (Dub again shows its cost first), or check it by ear before handing it on.',
};

/**
 * What a dub's length is held against: the source's own sound (`sound`: what was sent and dubbed, measured
 * here), else the file's length as probed when it was added (`file`: a URL source, a file since gone). A
 * file's length can be its picture's, or a chapter's that runs past every stream.
 */
export type LengthOf = 'sound' | 'file';

export interface QcInput {
  /** The dub's sound as measured; null when no dubbed media was downloaded (subtitles only). */
  audio: AudioMeasure | null;
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

function lengthProblem(delta: number, dub: number, source: number, of: LengthOf): QcProblem | null {
  const off = Math.abs(delta);
  if (off <= LENGTH_WARN_SECONDS) return null;
  const figures = `${dub.toFixed(2)} s against ${source.toFixed(2)} s`;
  const against =
    of === 'sound'
      ? `the source's sound (${figures})`
      : `the source file (${figures}; the source's own sound could not be measured here)`;
  return {
    code: 'length',
    severity: off > LENGTH_FAIL_SECONDS ? 'fail' : 'warn',
    message: `the dub's sound is ${off.toFixed(2)} s ${delta < 0 ? 'shorter' : 'longer'} than ${against}`,
    ...REDO,
  };
}

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

/** The parts of `[start, end]` where the source sounds: its length, in seconds. */
function sourceSoundsFor(s: Silence, sourceSilences: Silence[] | null): number {
  let quiet = 0;
  for (const q of sourceSilences ?? [])
    quiet += Math.max(0, Math.min(s.end, q.end) - Math.max(s.start, q.start));
  return s.end - s.start - quiet;
}

function silenceProblems(a: AudioMeasure, sourceSilences: Silence[] | null): QcProblem[] {
  if (a.integratedLufs === null) return []; // silent throughout: said once, as no-audio
  const long = a.silences.filter(
    (s) =>
      s.end - s.start >= LONG_SILENCE_SECONDS && sourceSoundsFor(s, sourceSilences) >= LONG_SILENCE_SECONDS,
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

/** The verdict on one finished dub, and each problem in words with what to do. */
export function judge(input: QcInput): Qc {
  const problems: QcProblem[] = [...(input.extra ?? [])];
  const a = input.audio;
  let durationDelta: number | null = null;
  if (input.noAudioStream)
    problems.push({
      code: 'no-audio',
      severity: 'fail',
      message: 'the dubbed media has no sound track',
      ...REDO,
    });
  if (a) {
    if (input.sourceSeconds !== null) {
      durationDelta = Math.round((a.durationSeconds - input.sourceSeconds) * 1000) / 1000;
      const length = lengthProblem(
        durationDelta,
        a.durationSeconds,
        input.sourceSeconds,
        input.sourceLengthOf ?? 'file',
      );
      if (length) problems.push(length);
    }
    problems.push(
      ...loudnessProblems(a, input.target, input.sourceLufs ?? null, input.jobId ?? null),
      ...silenceProblems(a, input.sourceSilences),
    );
  }
  problems.push(...input.subtitleProblems);
  const target = LOUDNESS_TARGETS[input.target];
  return {
    verdict: verdictOf(problems),
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

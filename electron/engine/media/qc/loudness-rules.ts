import {
  LOUDNESS_TARGETS,
  nearLoudnessTarget,
  OTHER_LOUDNESS_TARGET,
  verdictOf,
  type LoudnessTarget,
  type Qc,
  type QcProblem,
} from '../../../../shared/contract/deliver';

/** Off the loudness target by more than this many tolerances: a delivery check refuses it outright. */
const LOUDNESS_FAIL_TOLERANCES = 3;

const capitalized = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
/** Where a dub's target is said: `web platforms` reads better as `a web platform` in a sentence. */
const GOES_TO: Record<LoudnessTarget, string> = { web: 'a web platform', broadcast: 'broadcast' };

/**
 * The free way to another target for a dub already made (its stored measurement judged again), named with
 * its job number when known; then the way for the dubs to come. The terminal's words.
 */
function otherTargetWays(other: LoudnessTarget, jobId: number | null, it: string): string {
  const command = `\`dubdesk qc --loudness ${other}${jobId === null ? ' ID' : ` ${jobId}`}\``;
  return `${command} judges ${it} again against it at no cost; for new dubs, --loudness ${other} on add, dub or watch`;
}

/** The same way in the app's words: the QC panel's button, beside these words. */
const otherTargetButton = (other: LoudnessTarget) =>
  `“Check against the ${other} target” below judges it at ${LOUDNESS_TARGETS[other].lufs} LUFS, at no cost`;

/**
 * The dub's integrated loudness against the target. A dub as far off as its source (web video is mastered
 * near -14 LUFS, far above broadcast's -23) is said to be so: the service kept the original's level, and
 * dubbing it again would give the same. The severity stays the target's: a delivery check refuses the file.
 * `jobId` names the dub in the command that judges it against the other target.
 */
export function offTarget(
  lufs: number,
  targetName: LoudnessTarget,
  sourceLufs: number | null,
  jobId: number | null = null,
): QcProblem | null {
  const target = LOUDNESS_TARGETS[targetName];
  const off = lufs - target.lufs;
  if (Math.abs(off) <= target.tolerance) return null;
  const severity = Math.abs(off) > target.tolerance * LOUDNESS_FAIL_TOLERANCES ? 'fail' : 'warn';
  const inEditor = `bring it to ${target.lufs} LUFS in an editor`;
  const normalize = `${inEditor} (ffmpeg's loudnorm filter does it)`;
  const other = OTHER_LOUDNESS_TARGET[targetName];
  const otherTarget = LOUDNESS_TARGETS[other];
  // Off the same way, past the tolerance too, and within the tolerance of the dub.
  const asSource =
    sourceLufs !== null &&
    Math.sign(sourceLufs - target.lufs) === Math.sign(off) &&
    Math.abs(sourceLufs - target.lufs) > target.tolerance &&
    Math.abs(lufs - sourceLufs) <= target.tolerance;
  if (!asSource) {
    // Above broadcast, near the web target: it may simply be meant for the web.
    const nearOther = nearLoudnessTarget(lufs, other);
    return {
      code: 'loudness',
      severity,
      message: `integrated loudness ${lufs.toFixed(1)} LUFS is ${Math.abs(off).toFixed(1)} LU ${off > 0 ? 'above' : 'below'} the ${target.label} target of ${target.lufs} LUFS (±${target.tolerance})${sourceLufs === null ? '' : `; the source is at ${sourceLufs.toFixed(1)} LUFS`}`,
      remedy: `${capitalized(normalize)}${nearOther ? `; or, if it goes to ${GOES_TO[other]}, ${otherTargetWays(other, jobId, 'it')}` : ''}.`,
      ...(nearOther
        ? { remedyInApp: `${capitalized(inEditor)}; for ${GOES_TO[other]}, ${otherTargetButton(other)}.` }
        : {}),
    };
  }
  const fits = nearLoudnessTarget(sourceLufs, other);
  const pick = `If it goes to ${GOES_TO[other]}, pick the ${other} target (${otherTarget.lufs} LUFS): ${otherTargetWays(other, jobId, 'this dub')}; otherwise ${normalize}.`;
  const inApp = `Dubbing it again would give the same. For ${GOES_TO[other]}, ${otherTargetButton(other)}; otherwise ${inEditor}.`;
  return {
    code: 'loudness',
    severity,
    message: `integrated loudness ${lufs.toFixed(1)} LUFS, target ${target.lufs} ±${target.tolerance}, ${target.label}; the source itself is at ${sourceLufs.toFixed(1)} LUFS: the dub is as ${off > 0 ? 'loud' : 'quiet'} as its original`,
    remedy: `Dubbing it again would give the same. ${fits ? pick : `${capitalized(normalize)}; its original is as far off.`}`,
    ...(fits ? { remedyInApp: inApp } : {}),
    asSource: true,
  };
}

/**
 * A finished dub's check judged again against another loudness target, from what was measured (nothing
 * is read, sent or paid for): its loudness problem, the target and the verdict change; the rest stays.
 */
export function judgeAgainst(qc: Qc, targetName: LoudnessTarget, jobId: number | null): Qc {
  const at = qc.problems.findIndex((p) => p.code === 'loudness');
  const kept = qc.problems.filter((p) => p.code !== 'loudness');
  const lufs = qc.loudness.integrated;
  const off = lufs === null ? null : offTarget(lufs, targetName, qc.loudness.source ?? null, jobId);
  // Where the old one was (after the length), else after the length.
  const place = at >= 0 ? at : kept.filter((p) => p.code === 'length').length;
  const problems = off ? [...kept.slice(0, place), off, ...kept.slice(place)] : kept;
  const target = LOUDNESS_TARGETS[targetName];
  return {
    ...qc,
    verdict: verdictOf(problems),
    target: { name: targetName, lufs: target.lufs, tolerance: target.tolerance },
    problems,
  };
}

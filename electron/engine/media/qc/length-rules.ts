import { basename } from 'node:path';
import type { QcFit, QcProblem } from '../../../../shared/contract/deliver';
import { fitOf } from '../ffmpeg/rebuild';
import { REDO } from './redo';

/** Length differences: a look beyond this, a failure beyond the next (seconds). */
export const LENGTH_WARN_SECONDS = 0.5;
export const LENGTH_FAIL_SECONDS = 2;

/**
 * What a dub's length is held against: the source's own sound (`sound`: what was sent and dubbed, measured
 * here), else the file's length as probed when it was added (`file`: a URL source, a file since gone). A
 * file's length can be its picture's, or a chapter's that runs past every stream.
 */
export type LengthOf = 'sound' | 'file';

/**
 * How a video made here fitted the dub's sound (`dubSeconds`) to its picture, read from the sound that video
 * holds (`heldSeconds`, the picture's length): null when they were the same.
 */
export function fitIn(dubSeconds: number, heldSeconds: number): QcFit | null {
  const fit = fitOf(dubSeconds, heldSeconds);
  return fit.how === 'same' ? null : { how: fit.how, seconds: Math.abs(fit.differenceSeconds) };
}

/** What the delivered video did with a dub that did not fit its picture, in words. */
function fitWords(fit: QcFit, path: string): string {
  const by = `${fit.seconds.toFixed(2)} s`;
  return fit.how === 'padded'
    ? `: ${basename(path)} ends on ${by} of silence added to fill its picture`
    : `: ${basename(path)} cuts its last ${by} at the picture's end`;
}

export interface LengthFacts {
  /** The dub's sound minus the source's, in seconds. */
  delta: number;
  dubSeconds: number;
  sourceSeconds: number;
  of: LengthOf;
  /** The video made here from the dub, and how it fitted the dub to its picture; null for the service's file. */
  rebuilt: { path: string; fit: QcFit | null } | null;
}

/** A dub longer or shorter than what was dubbed; in a video made here, what that did to the video too. */
export function lengthProblem(f: LengthFacts): QcProblem | null {
  const off = Math.abs(f.delta);
  if (off <= LENGTH_WARN_SECONDS) return null;
  const figures = `${f.dubSeconds.toFixed(2)} s against ${f.sourceSeconds.toFixed(2)} s`;
  const against =
    f.of === 'sound'
      ? `the source's sound (${figures})`
      : `the source file (${figures}; the source's own sound could not be measured here)`;
  const fitted = f.rebuilt?.fit ? fitWords(f.rebuilt.fit, f.rebuilt.path) : '';
  return {
    code: 'length',
    severity: off > LENGTH_FAIL_SECONDS ? 'fail' : 'warn',
    message: `the dub's sound is ${off.toFixed(2)} s ${f.delta < 0 ? 'shorter' : 'longer'} than ${against}${fitted}`,
    ...REDO,
  };
}

/** A video made here whose dub's own length is not known (the sound it was made from is gone). */
export const lengthUnknown = (path: string): QcProblem => ({
  code: 'unchecked',
  severity: 'warn',
  message: `the dub's own length could not be checked: the dubbed sound ${basename(path)} was made from is gone`,
  remedy: 'Play the end of the video to hear whether the dub ends with it.',
});

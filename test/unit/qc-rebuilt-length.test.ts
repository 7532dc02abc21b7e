import { describe, expect, it } from 'vitest';
import { QcSchema } from '../../shared/contract/deliver';
import type { AudioMeasure } from '../../electron/engine/media/qc/measure';
import { judge } from '../../electron/engine/media/qc/rules';

/** The sound of a video made here: the picture's 60 s, at the target, `silences` where it is quiet. */
const held = (silences: AudioMeasure['silences'] = []): AudioMeasure => ({
  durationSeconds: 60,
  integratedLufs: -23,
  truePeakDbtp: -3,
  samplePeakDbfs: -3.5,
  silences,
  fullScaleSamples: 0,
  samples: 2_880_000,
});

const rebuilt = { path: '/Vidéos/Réunion annuelle.fr.mp4', kind: 'rebuilt' } as const;

const judged = (audio: AudioMeasure, dubSeconds: number | null, sourceSeconds = 60) =>
  judge({
    audio,
    measured: rebuilt,
    dubSeconds,
    sourceSeconds,
    sourceLengthOf: 'sound',
    sourceSilences: [],
    subtitleProblems: [],
    target: 'broadcast',
  });

describe('a video made here: its length judged on the dub it holds, fitted to the picture', () => {
  it('a dub 3 s short, padded: its own length is judged, and the words say what the video holds', () => {
    const qc = judged(held([{ start: 57, end: 60 }]), 57);
    expect(QcSchema.parse(qc)).toEqual(qc);
    expect(qc.durationDelta).toBe(-3);
    expect(qc.measured).toEqual({ ...rebuilt, fit: { how: 'padded', seconds: 3 } });
    expect(qc.problems.map((p) => [p.code, p.severity])).toEqual([['length', 'fail']]);
    expect(qc.problems[0]?.message).toBe(
      "the dub's sound is 3.00 s shorter than the source's sound (57.00 s against 60.00 s): Réunion annuelle.fr.mp4 ends on 3.00 s of silence added to fill its picture",
    );
  });

  it('a dub 1 s long, cut: a warning that names the second cut off', () => {
    const qc = judged(held(), 61);
    expect(qc.measured?.fit).toEqual({ how: 'cut', seconds: 1 });
    expect(qc.problems.map((p) => [p.code, p.severity])).toEqual([['length', 'warn']]);
    expect(qc.problems[0]?.message).toMatch(
      /Réunion annuelle\.fr\.mp4 cuts its last 1\.00 s at the picture's end$/,
    );
  });

  it("a dub of a sound that stops before the picture: padded where the source is quiet too, so nothing's wrong", () => {
    // The source's sound ends at 52 s, its picture at 60; the dub is as long as the sound, padded 8 s.
    const qc = judged(held([{ start: 52, end: 60 }]), 52, 52);
    expect(qc.durationDelta).toBe(0);
    expect(qc.measured?.fit).toEqual({ how: 'padded', seconds: 8 });
    expect(qc.problems).toEqual([]);
    expect(qc.verdict).toBe('pass');
  });

  it('the sound it was made from gone: its own length is not guessed from the video, and QC says so', () => {
    const qc = judged(held(), null);
    expect(qc.durationDelta).toBeNull();
    expect(qc.measured).toEqual({ ...rebuilt, fit: null });
    expect(qc.problems.map((p) => [p.code, p.severity])).toEqual([['unchecked', 'warn']]);
    expect(qc.problems[0]?.message).toBe(
      "the dub's own length could not be checked: the dubbed sound Réunion annuelle.fr.mp4 was made from is gone",
    );
  });

  it("the service's own file: its sound is the dub's, nothing fitted", () => {
    const qc = judge({
      audio: { ...held(), durationSeconds: 57 },
      measured: { path: '/v/talk.fr.mp4', kind: 'downloaded' },
      sourceSeconds: 60,
      sourceLengthOf: 'sound',
      sourceSilences: [],
      subtitleProblems: [],
      target: 'broadcast',
    });
    expect(qc.measured).toEqual({ path: '/v/talk.fr.mp4', kind: 'downloaded', fit: null });
    expect(qc.durationDelta).toBe(-3);
    expect(qc.problems[0]?.message).toBe(
      "the dub's sound is 3.00 s shorter than the source's sound (57.00 s against 60.00 s)",
    );
  });
});

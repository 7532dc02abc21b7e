import { describe, expect, it } from 'vitest';
import type { LoudnessTarget } from '../../shared/contract/deliver';
import type { AudioMeasure } from '../../electron/engine/media/qc/measure';
import { judge } from '../../electron/engine/media/qc/rules';

/** A dub's sound at `lufs`, otherwise unremarkable (no peak over the ceiling, no clipping, no silence). */
const sound = (lufs: number): AudioMeasure => ({
  durationSeconds: 60,
  integratedLufs: lufs,
  truePeakDbtp: -3,
  samplePeakDbfs: -3.5,
  silences: [],
  fullScaleSamples: 0,
  samples: 2_880_000,
});

const loudness = (dub: number, source: number | null, target: LoudnessTarget) =>
  judge({
    audio: sound(dub),
    sourceSeconds: 60,
    sourceSilences: [],
    sourceLufs: source,
    subtitleProblems: [],
    target,
  }).problems.find((p) => p.code === 'loudness');

describe("a dub's loudness against its source's", () => {
  it('as quiet as a quiet source at broadcast: said, and no web target offered (it would not fit)', () => {
    const p = loudness(-31.2, -30.8, 'broadcast');
    expect(p?.message).toBe(
      'integrated loudness -31.2 LUFS, target -23 ±2, broadcast (EBU R128); the source itself is at -30.8 LUFS: the dub is as quiet as its original',
    );
    expect(p?.remedy).toBe(
      "Dubbing it again would give the same. Bring it to -23 LUFS in an editor (ffmpeg's loudnorm filter does it); its original is as far off.",
    );
    // 8.2 LU off, beyond three tolerances: the target's verdict, whatever the source.
    expect(p?.severity).toBe('fail');
    expect(p?.asSource).toBe(true);
  });

  it('at the web target, a broadcast-level source and its dub: the broadcast target is offered', () => {
    const p = loudness(-23.4, -22.9, 'web');
    expect(p?.message).toMatch(/the source itself is at -22\.9 LUFS: the dub is as quiet as its original$/);
    expect(p?.remedy).toMatch(
      /If it goes to broadcast, pick the broadcast target \(-23 LUFS\): --loudness broadcast/,
    );
    expect(p?.severity).toBe('fail');
  });

  it('a dub far from its source is off on its own: the source is named, not blamed', () => {
    const p = loudness(-12, -23.5, 'broadcast');
    expect(p?.message).toBe(
      'integrated loudness -12.0 LUFS is 11.0 LU above the broadcast (EBU R128) target of -23 LUFS (±2); the source is at -23.5 LUFS',
    );
    expect(p?.remedy).not.toMatch(/Dubbing it again would give the same/);
    expect(p?.asSource).toBeUndefined();
  });

  it('a source on the other side of the target, or unknown: the words as before', () => {
    expect(loudness(-14, -30, 'broadcast')?.message).not.toMatch(/source itself/);
    expect(loudness(-14, null, 'broadcast')?.message).toBe(
      'integrated loudness -14.0 LUFS is 9.0 LU above the broadcast (EBU R128) target of -23 LUFS (±2)',
    );
    expect(loudness(-22, -14, 'broadcast')).toBeUndefined();
  });
});

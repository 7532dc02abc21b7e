import { describe, expect, it } from 'vitest';
import type { LoudnessTarget } from '../../shared/contract/deliver';
import type { AudioMeasure } from '../../electron/engine/media/qc/measure';
import { judgeAgainst } from '../../electron/engine/media/qc/loudness-rules';
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
    // No other target fits: no button to name, the one advice says it for both.
    expect(p?.remedyInApp).toBeUndefined();
  });

  it('at the web target, a broadcast-level source and its dub: the broadcast target is offered', () => {
    const p = loudness(-23.4, -22.9, 'web');
    expect(p?.message).toMatch(/the source itself is at -22\.9 LUFS: the dub is as quiet as its original$/);
    expect(p?.remedy).toMatch(
      /If it goes to broadcast, pick the broadcast target \(-23 LUFS\): `dubdesk qc --loudness broadcast ID` judges this dub again against it at no cost; for new dubs, --loudness broadcast on add, dub or watch/,
    );
    // The terminal's words name commands, the window's its button: neither names the other's.
    expect(p?.remedy).not.toMatch(/Check against|Add sheet|panel/);
    expect(p?.remedyInApp).toBe(
      'Dubbing it again would give the same. For broadcast, “Check against the broadcast target” below judges it at -23 LUFS, at no cost; otherwise bring it to -14 LUFS in an editor.',
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
    // Near the web target: the window names its button, the terminal its command.
    expect(p?.remedyInApp).toBe(
      'Bring it to -23 LUFS in an editor; for a web platform, “Check against the web target” below judges it at -14 LUFS, at no cost.',
    );
    expect(p?.remedy).toMatch(/`dubdesk qc --loudness web ID`/);
  });

  it('a source on the other side of the target, or unknown: the words as before', () => {
    expect(loudness(-14, -30, 'broadcast')?.message).not.toMatch(/source itself/);
    expect(loudness(-14, null, 'broadcast')?.message).toBe(
      'integrated loudness -14.0 LUFS is 9.0 LU above the broadcast (EBU R128) target of -23 LUFS (±2)',
    );
    expect(loudness(-22, -14, 'broadcast')).toBeUndefined();
  });
});

describe('a finished dub judged again against the other target, from its stored figures', () => {
  const checked = (dub: number, source: number | null) =>
    judge({
      audio: { ...sound(dub), durationSeconds: 56 },
      sourceSeconds: 60,
      sourceLengthOf: 'sound',
      sourceSilences: [],
      sourceLufs: source,
      subtitleProblems: [],
      target: 'broadcast',
      jobId: 7,
    });

  it('a web-loud dub: fails broadcast, passes web on its loudness, keeps its other problems and figures', () => {
    const first = checked(-14.2, -14.0);
    expect(first.problems.map((p) => p.code)).toEqual(['length', 'loudness']);
    // Dubbing it again: the terminal's command, the window's button; neither names the other's.
    expect(first.problems[0]?.remedy).toMatch(/^Dub it again \(`dubdesk again ID`, charged again\)/);
    expect(first.problems[0]?.remedyInApp).toMatch(/^Dub it again \(Dub again shows its cost first\)/);
    expect(first.problems[1]?.remedy).toMatch(/`dubdesk qc --loudness web 7` judges this dub again/);
    expect(first.problems[1]?.remedyInApp).toMatch(
      /^Dubbing it again would give the same\. For a web platform, “Check against the web target” below judges it at -14 LUFS, at no cost; otherwise bring it to -23 LUFS in an editor\.$/,
    );
    const web = judgeAgainst(first, 'web', 7);
    expect(web.target).toEqual({ name: 'web', lufs: -14, tolerance: 2 });
    expect(web.problems).toEqual([first.problems[0]]);
    expect(web.verdict).toBe('fail'); // 4 s short still fails
    expect(web.loudness).toEqual(first.loudness);
    expect(web.durationDelta).toBe(first.durationDelta);
    expect(web.checkedAt).toBe(first.checkedAt);
    // And back: the very words of the first check.
    expect(judgeAgainst(web, 'broadcast', 7)).toEqual(first);
  });

  it('a dub loud on its own, far from both targets: the web target does not pass it, nor is it offered', () => {
    const first = checked(1, -23);
    expect(first.problems.find((p) => p.code === 'loudness')?.remedy).not.toMatch(/dubdesk qc/);
    const web = judgeAgainst(first, 'web', 7);
    expect(web.problems.find((p) => p.code === 'loudness')?.message).toMatch(
      /^integrated loudness 1\.0 LUFS is 15\.0 LU above the web platforms target of -14 LUFS/,
    );
  });

  it('a silent dub has no loudness to judge: only the target changes', () => {
    const silent = { ...checked(-23, -23), loudness: { integrated: null, truePeak: null, source: -23 } };
    const web = judgeAgainst(silent, 'web', 7);
    expect(web.problems).toEqual(silent.problems);
    expect(web.target.name).toBe('web');
  });
});

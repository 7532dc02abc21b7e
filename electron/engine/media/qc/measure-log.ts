import { z } from 'zod';

export interface Silence {
  start: number;
  end: number;
}

/** A level ffmpeg prints: a number, or `-inf` for digital silence (kept as null). */
const Level = z.union([z.literal('-inf').transform(() => null), z.coerce.number().finite()]);
const Count = z.coerce.number().int().nonnegative();

/** The figures read from the log, checked: a build that prints something else is refused, not misread. */
const MeasureLog = z.object({
  integrated: z.coerce.number().finite(),
  truePeak: Level,
  samplePeak: Level,
  samples: Count,
  fullScale: Count,
});

/** ebur128 says -70 LUFS (its absolute gate) when nothing was loud enough to count: silence. */
const GATED_OUT_LUFS = -70;

/**
 * The lines of ebur128's last summary (the one printed when the stream ended): `I:` under "Integrated
 * loudness", and `Peak:` under "Sample peak" and "True peak".
 */
function ebur128Summary(stderr: string): { integrated?: string; truePeak?: string; samplePeak?: string } {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return {};
  const out: { integrated?: string; truePeak?: string; samplePeak?: string } = {};
  let section = '';
  for (const raw of stderr.slice(at).split('\n')) {
    const line = raw.trim();
    if (/^(Integrated loudness|Loudness range|Sample peak|True peak):$/.test(line)) section = line;
    const value = line.match(/^(I|Peak):\s+(\S+)\s+(LUFS|dBFS)$/)?.[2];
    if (value === undefined) continue;
    if (section.startsWith('Integrated')) out.integrated = value;
    else if (section.startsWith('Sample')) out.samplePeak = value;
    else if (section.startsWith('True')) out.truePeak = value;
  }
  return out;
}

const Loudness = z.coerce.number().finite();

/** The integrated loudness of ebur128's last summary (LUFS); null when gated out (silence) or not printed. */
export function parseIntegrated(stderr: string): number | null {
  const parsed = Loudness.safeParse(ebur128Summary(stderr).integrated);
  return parsed.success && parsed.data > GATED_OUT_LUFS ? parsed.data : null;
}

const lastMatch = (text: string, re: RegExp) => [...text.matchAll(re)].at(-1)?.[1];

export function parseMeasureLog(
  stderr: string,
  durationSeconds: number,
): {
  integratedLufs: number | null;
  truePeakDbtp: number | null;
  samplePeakDbfs: number | null;
  silences: Silence[];
  fullScaleSamples: number;
  samples: number;
} {
  const summary = ebur128Summary(stderr);
  const parsed = MeasureLog.safeParse({
    ...summary,
    samples: lastMatch(stderr, /n_samples: (\d+)/g),
    // volumedetect prints only the bins that hold samples: no `histogram_0db` line is none at full scale.
    fullScale: lastMatch(stderr, /histogram_0db: (\d+)/g) ?? '0',
  });
  if (!parsed.success)
    throw new Error(
      `ffmpeg's measurement could not be read (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')} missing)`,
    );
  const m = parsed.data;
  const silent = m.integrated <= GATED_OUT_LUFS;
  return {
    integratedLufs: silent ? null : m.integrated,
    truePeakDbtp: silent ? null : m.truePeak,
    samplePeakDbfs: silent ? null : m.samplePeak,
    silences: parseSilences(stderr, durationSeconds),
    fullScaleSamples: m.fullScale,
    samples: m.samples,
  };
}

/**
 * silencedetect's `silence_start` / `silence_end` pairs. A silence still open when the sound ended (older
 * builds print no end for it) ends there.
 */
export function parseSilences(stderr: string, durationSeconds: number): Silence[] {
  const out: Silence[] = [];
  let open: number | null = null;
  for (const m of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    const at = z.coerce.number().finite().parse(m[2]);
    if (m[1] === 'start') open = Math.max(0, at);
    else if (open !== null) {
      out.push({ start: open, end: at });
      open = null;
    }
  }
  if (open !== null && durationSeconds > open) out.push({ start: open, end: durationSeconds });
  return out;
}

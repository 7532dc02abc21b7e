import { z } from 'zod';
import { DubdeskError } from './errors';

/**
 * What a batch hands on besides each language's own files: one file holding every language (`mkv` or
 * `mp4`; `none` for no such file), the subtitle formats written beside the media, and the loudness target
 * each finished dub is checked against.
 */
export const PACKAGE_FORMATS = ['mkv', 'mp4', 'none'] as const;
export const PackageFormatSchema = z.enum(PACKAGE_FORMATS);
export type PackageFormat = z.infer<typeof PackageFormatSchema>;

export const SUBTITLE_FORMATS = ['vtt', 'srt'] as const;
export const SubtitleFormatSchema = z.enum(SUBTITLE_FORMATS);
export type SubtitleFormat = z.infer<typeof SubtitleFormatSchema>;
/** `vtt` (the service's WebVTT, as it came), `srt` (converted from it), or both. */
export const SubtitleFormatsSchema = z
  .array(SubtitleFormatSchema)
  .min(1, 'name at least one subtitle format: vtt, srt')
  .max(2)
  .refine((list) => new Set(list).size === list.length, { message: 'a subtitle format is named twice' });
export type SubtitleFormats = z.infer<typeof SubtitleFormatsSchema>;

/**
 * Which audio track of the package players start with: the original (the default) or one dubbed language
 * of the batch. Exactly one track is marked default.
 */
export const DefaultAudioSchema = z.union([
  z.literal('original'),
  z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'a language code such as es, or original'),
]);
export type DefaultAudio = z.infer<typeof DefaultAudioSchema>;

/** The integrated loudness a dub is checked against: EBU R128 broadcast, or what web platforms play at. */
export const LOUDNESS_TARGETS = {
  broadcast: { lufs: -23, tolerance: 2, label: 'broadcast (EBU R128)' },
  web: { lufs: -14, tolerance: 2, label: 'web platforms' },
} as const;
export const LoudnessTargetSchema = z.enum(['broadcast', 'web']);
export type LoudnessTarget = z.infer<typeof LoudnessTargetSchema>;

/** The target a dub off one may be meant for instead. */
export const OTHER_LOUDNESS_TARGET: Record<LoudnessTarget, LoudnessTarget> = {
  broadcast: 'web',
  web: 'broadcast',
};

/**
 * Within twice the tolerance of `target`: a dub (or its source) this close to the other target may simply
 * be meant for it, so judging it against that one is worth offering.
 */
export const nearLoudnessTarget = (lufs: number, target: LoudnessTarget): boolean =>
  Math.abs(lufs - LOUDNESS_TARGETS[target].lufs) <= LOUDNESS_TARGETS[target].tolerance * 2;

/** What a batch asks for beyond the dubs themselves; every field has its default. */
export const deliverFields = {
  package: PackageFormatSchema.default('none'),
  subtitles: SubtitleFormatsSchema.default(['vtt']),
  defaultAudio: DefaultAudioSchema.default('original'),
  loudness: LoudnessTargetSchema.default('broadcast'),
};

/**
 * The package's default sound is the original or one of the batch's own languages: another one would be a
 * track the file does not have. Said before any file is read (the CLI checks it with the flags).
 */
export function checkDefaultAudio(to: readonly string[], defaultAudio: DefaultAudio): void {
  if (defaultAudio !== 'original' && !to.includes(defaultAudio))
    throw new DubdeskError(
      'bad-request',
      `the default sound '${defaultAudio}' is not one of this batch's languages (${to.join(', ')})`,
      { remedy: `Pick original, or one of ${to.join(', ')}.`, field: 'defaultAudio' },
    );
}

/** A job's delivery choices as stored with it (each field falls back to its default). */
export const DeliverChoiceSchema = z.object(deliverFields);
export type DeliverChoice = z.infer<typeof DeliverChoiceSchema>;

export const QC_VERDICTS = ['pass', 'warn', 'fail'] as const;
export const QcVerdictSchema = z.enum(QC_VERDICTS);
export type QcVerdict = z.infer<typeof QcVerdictSchema>;

export const QC_CODES = [
  /** The dub's sound is longer or shorter than the source's sound. */
  'length',
  /** Integrated loudness off the target. */
  'loudness',
  /** True peak above the ceiling (-1 dBTP). */
  'true-peak',
  /** Samples at full scale: the sound is cut off. */
  'clipping',
  /** A long silence where the original has sound. */
  'silence',
  /** No sound at all (or none downloaded). */
  'no-audio',
  /** The subtitles do not read as WebVTT. */
  'subtitles-unreadable',
  /** A cue starts before the one above it. */
  'subtitles-order',
  /** A cue runs past the end of the media. */
  'subtitles-past-end',
  /** Cues faster than a viewer reads (characters per second). */
  'subtitles-fast',
  /** The check itself could not run (the file is gone, ffmpeg failed). */
  'unchecked',
] as const;
export const QcCodeSchema = z.enum(QC_CODES);
export type QcCode = z.infer<typeof QcCodeSchema>;

export const QcProblemSchema = z.object({
  code: QcCodeSchema,
  /** `warn`: worth a look; `fail`: a delivery check would refuse it. */
  severity: z.enum(['warn', 'fail']),
  /** What is wrong, in words, with the figures. */
  message: z.string(),
  /** What to do about it (in the terminal's words: commands and flags). */
  remedy: z.string(),
  /**
   * The same advice in the app's words, naming its buttons instead of commands; absent where `remedy`
   * names no command (it then says it for both).
   */
  remedyInApp: z.string().optional(),
  /**
   * The source itself is off the same way (a dub as loud as its web-loud original): dubbing it again would
   * give the same, so no face offers to. Absent: the dub's own.
   */
  asSource: z.boolean().optional(),
});
export type QcProblem = z.infer<typeof QcProblemSchema>;

/** How a dubbed sound was fitted to the picture in a video made here: padded with silence, or cut, by `seconds`. */
export const QcFitSchema = z.object({ how: z.enum(['padded', 'cut']), seconds: z.number() });
export type QcFit = z.infer<typeof QcFitSchema>;

/** The file a check measured: the one the user is handed. */
export const QcMeasuredSchema = z.object({
  path: z.string(),
  /**
   * `rebuilt`: the video made here under the dubbed sound (sending the sound alone); `downloaded`: the
   * service's own file, as it was delivered.
   */
  kind: z.enum(['rebuilt', 'downloaded']),
  /** How a rebuilt video fitted the dubbed sound to its picture; null when it fit already, or downloaded. */
  fit: QcFitSchema.nullable(),
});
export type QcMeasured = z.infer<typeof QcMeasuredSchema>;

/** A finished dub's check, computed on this machine from the file the user is handed. Never hides a result. */
export const QcSchema = z.object({
  verdict: QcVerdictSchema,
  /**
   * The file measured: null when there was none to measure (subtitles only, no ffmpeg); absent from checks
   * made before it was said.
   */
  measured: QcMeasuredSchema.nullable().optional(),
  /**
   * The dub's sound minus the source's sound (what was dubbed; the source file's length when its sound could
   * not be measured here), in seconds; null when either is unknown. In a video made here the dub's sound is
   * its own length before it was fitted to the picture (`measured.fit` says how).
   */
  durationDelta: z.number().nullable(),
  loudness: z.object({
    /** EBU R128 integrated loudness (LUFS); null when silent or not measured. */
    integrated: z.number().nullable(),
    /** EBU R128 true peak (dBTP); null when silent or not measured. */
    truePeak: z.number().nullable(),
    /**
     * The source's own integrated loudness (LUFS), measured here once per source: null when it could not
     * be (a URL source, a file since moved, silence); absent from checks made before it was measured.
     */
    source: z.number().nullable().optional(),
  }),
  /** What the loudness was checked against. */
  target: z.object({ name: LoudnessTargetSchema, lufs: z.number(), tolerance: z.number() }),
  problems: z.array(QcProblemSchema),
  /** ISO time of the check. */
  checkedAt: z.string(),
});
export type Qc = z.infer<typeof QcSchema>;

/** The worst of the problems' severities: no problem passes. */
export function verdictOf(problems: readonly Pick<QcProblem, 'severity'>[]): QcVerdict {
  if (problems.some((p) => p.severity === 'fail')) return 'fail';
  return problems.length > 0 ? 'warn' : 'pass';
}

import { z } from 'zod';

/** Every error the service answers is `{ error: <message> }`; v2 create's 502 also carries the dub `id`. */
export const ErrorBody = z.object({ error: z.string(), id: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const LangEntry = z.object({
  code: z.string().min(1),
  name: z.string(),
  emoji: z.string(),
  flagUrl: z.string(),
});
export type LangEntry = z.infer<typeof LangEntry>;
export const LangList = z.array(LangEntry);

/** A non-null error message is of a shape the spec does not show: accept text or an object. */
export const RemoteErrorMessage = z.union([z.string(), z.record(z.string(), z.unknown())]).nullable();

/**
 * The longest dub Dubdesk believes in: 48 hours of output. The service bills its measured duration, and the
 * queue sums it: a value outside 0..48 h (negative, absurd, not a number) is the service breaking its
 * promise, refused where its answer comes in, naming what it sent.
 */
export const MAX_MEASURED_SECONDS = 48 * 3600;
export const MeasuredSeconds = z
  .number({ error: (i) => `the service sent ${String(i.input)}, not a number of seconds` })
  .min(0, { error: (i) => `the service sent ${String(i.input)}: a duration is never negative` })
  .max(MAX_MEASURED_SECONDS, {
    error: (i) => `the service sent ${String(i.input)} s: more than 48 h, no dub is that long`,
  });

export const ExternalStatus = {
  Uploading: 1,
  InQueue: 2,
  Processing: 3,
  Failed: 4,
  Completed: 5,
} as const;

export const EXTERNAL_STATUSES: Readonly<Record<number, { name: string; alias: string }>> = {
  1: { name: 'Uploading', alias: 'uploading' },
  2: { name: 'In Queue', alias: 'in_queue' },
  3: { name: 'Processing', alias: 'processing' },
  4: { name: 'Failed', alias: 'failed' },
  5: { name: 'Completed', alias: 'completed' },
};

/** Legacy-only pipeline stages, 1..10. */
export const INTERNAL_STATUSES: Readonly<Record<number, { name: string; alias: string }>> = {
  1: { name: 'Uploading S3', alias: 'uploading_s3' },
  2: { name: 'Process - Audio Extraction', alias: 'process_audio_extraction' },
  3: { name: 'Process - Speech Isolation', alias: 'process_speech_isolation' },
  4: { name: 'Process - Audio Transcription', alias: 'process_transcription' },
  5: { name: 'Process - Translation', alias: 'process_translation' },
  6: { name: 'Process - Voice Cloning', alias: 'process_voice_cloning' },
  7: { name: 'Process - Audio Video Merge', alias: 'process_audio_video_merge' },
  8: { name: 'Upload Result Files', alias: 'uploading_result_files' },
  9: { name: 'Failed', alias: 'failed' },
  10: { name: 'Completed', alias: 'completed' },
};

export const OUTPUT_TYPES = [
  'translated_mp4',
  'translated',
  'translated_mp3',
  'translated_subtitle',
  'original',
  'original_mp4',
  'original_mp3',
  'original_subtitle',
  'poster',
] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];
export const OutputTypeSchema = z.enum(OUTPUT_TYPES);

export const OutputLink = z.object({ url: z.string().url(), download_url: z.string().url() });
export type OutputLink = z.infer<typeof OutputLink>;

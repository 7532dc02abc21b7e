import { iso6392 } from 'iso-639-2';
import { z } from 'zod';

/**
 * Which of a source's audio tracks is dubbed: `first` (the one players play unless told otherwise), a
 * track's number among the audio tracks counted from 1 as people count (`2`), or the language its tag
 * names (`eng`, or `en`). Kept as text everywhere (a job's column, a preset, the CLI's flag, JSON), so the
 * same value means the same track on every face.
 */
export const AUDIO_TRACK_HELP =
  'an audio track is first, its number among the audio tracks counting from 1 (2), or its language (eng, en)';

/** The most audio tracks a track number may name: no container a person makes holds more. */
export const MAX_AUDIO_TRACK = 99;

/** ISO 639-1 (`en`) and ISO 639-2 (`eng`, `fra`, `fre`) codes, each to its ISO 639-2 bibliographic form. */
const toTag = new Map<string, string>(
  iso6392.flatMap((l) => [
    [l.iso6392B, l.iso6392B] as const,
    ...(l.iso6392T ? [[l.iso6392T, l.iso6392B] as const] : []),
    ...(l.iso6391 ? [[l.iso6391, l.iso6392B] as const] : []),
  ]),
);

/** The ISO 639-2 bibliographic code a language choice names (`en` → `eng`, `fra` → `fre`); null if none. */
export function trackLanguageTag(code: string): string | null {
  return toTag.get(code.toLowerCase()) ?? null;
}

const AudioTrackText = z
  .string({ error: AUDIO_TRACK_HELP })
  .trim()
  .toLowerCase()
  .superRefine((text, ctx) => {
    if (text === 'first') return;
    if (/^\d+$/.test(text)) {
      const n = Number(text);
      if (n >= 1 && n <= MAX_AUDIO_TRACK) return;
      ctx.addIssue({
        code: 'custom',
        message:
          n === 0
            ? `audio track 0 does not exist: tracks are counted from 1 (the first is 1)`
            : `audio track ${text} is not a track number from 1 to ${MAX_AUDIO_TRACK}`,
      });
      return;
    }
    if (/^[a-z]{2,3}$/.test(text) && trackLanguageTag(text) && !['und', 'mul', 'zxx', 'mis'].includes(text))
      return;
    ctx.addIssue({
      code: 'custom',
      message: `'${text}' is not an audio track: ${AUDIO_TRACK_HELP}`,
    });
  })
  // `02` is track 2: one spelling per track, so the same track chosen twice is one dub.
  .transform((text) => (/^\d+$/.test(text) ? String(Number(text)) : text));

/** The choice as text; a script's JSON may give a track's number as a number (`2`), read as `"2"`. */
export const AudioTrackSchema = z.preprocess(
  (given) => (typeof given === 'number' ? String(given) : given),
  AudioTrackText,
);
export type AudioTrack = z.infer<typeof AudioTrackSchema>;

/** A track choice as the batch gives it, or `first` where it says none. */
export const audioTrackField = AudioTrackSchema.default('first');

/** What the choice names: the first track, a track's number, or a language (as its ISO 639-2 code). */
export type TrackChoice =
  { by: 'first' } | { by: 'number'; number: number } | { by: 'language'; tag: string };

export function trackChoice(track: AudioTrack): TrackChoice {
  if (track === 'first') return { by: 'first' };
  if (/^\d+$/.test(track)) return { by: 'number', number: Number(track) };
  return { by: 'language', tag: trackLanguageTag(track) ?? track };
}

/** The choice in words: "the first audio track", "audio track 2", "the audio track in eng". */
export function describeTrack(track: AudioTrack): string {
  const c = trackChoice(track);
  if (c.by === 'first') return 'the first audio track';
  if (c.by === 'number') return `audio track ${c.number}`;
  return `the ${c.tag} audio track`;
}

/** One audio track of a source, as a face lists it to choose from. */
export const AudioTrackInfoSchema = z.object({
  /** Its number among the audio tracks, from 1. */
  number: z.number().int().min(1),
  /** ISO 639-2 (`eng`), or null when its tag names none. */
  language: z.string().nullable(),
  /** The name the file gives it ("Director's commentary"), or null. */
  title: z.string().nullable(),
  channels: z.number().int().nullable(),
  codec: z.string(),
});
export type AudioTrackInfo = z.infer<typeof AudioTrackInfoSchema>;

/** A track as a line of a list: "2 · fre · Commentary · stereo". */
export function trackLabel(t: AudioTrackInfo): string {
  const channels =
    t.channels === 1
      ? 'mono'
      : t.channels === 2
        ? 'stereo'
        : t.channels === 6
          ? '5.1'
          : t.channels === 8
            ? '7.1'
            : t.channels
              ? `${t.channels} channels`
              : null;
  return [String(t.number), t.language ?? 'no language', t.title, channels].filter(Boolean).join(' · ');
}

/** The tracks of a file in a sentence, for a message: "1 (eng, stereo), 2 (fre, Commentary, stereo)". */
export function listTracks(tracks: readonly AudioTrackInfo[]): string {
  if (tracks.length === 0) return 'no audio track';
  return tracks
    .map((t) => {
      const rest = trackLabel(t).split(' · ').slice(1).join(', ');
      return `${t.number} (${rest})`;
    })
    .join(', ');
}

/**
 * The track a choice names among a file's audio tracks (in the file's order), or null when it has none
 * such: `first` and `1` the first, a number that one, a language the first track tagged with it.
 */
export function pickTrack<T extends { language: string | null }>(
  tracks: readonly T[],
  track: AudioTrack,
): { track: T; number: number } | null {
  const c = trackChoice(track);
  const at =
    c.by === 'first'
      ? 0
      : c.by === 'number'
        ? c.number - 1
        : tracks.findIndex((t) => t.language !== null && trackLanguageTag(t.language) === c.tag);
  const found = at >= 0 ? tracks[at] : undefined;
  return found ? { track: found, number: at + 1 } : null;
}

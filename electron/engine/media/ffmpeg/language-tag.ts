import { iso6392 } from 'iso-639-2';

const byTwoLetter = new Map(iso6392.flatMap((l) => (l.iso6391 ? [[l.iso6391, l.iso6392B] as const] : [])));

/**
 * The ISO 639-2 code players read from an audio stream's language tag (`es` → `spa`, `fr` → `fre`): the
 * bibliographic form, which Matroska asks for and ffmpeg's MP4 writer takes too. `und` for a code it lacks.
 */
export function languageTag(code: string): string {
  return byTwoLetter.get(code.toLowerCase()) ?? 'und';
}

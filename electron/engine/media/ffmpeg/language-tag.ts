import { iso6392 } from 'iso-639-2';

const byTwoLetter = new Map(iso6392.flatMap((l) => (l.iso6391 ? [[l.iso6391, l.iso6392B] as const] : [])));
/** Every ISO 639-2 code, bibliographic (`fre`) or terminological (`fra`), to its bibliographic form. */
const byThreeLetter = new Map(
  iso6392.flatMap((l) => [
    [l.iso6392B, l.iso6392B] as const,
    ...(l.iso6392T ? [[l.iso6392T, l.iso6392B] as const] : []),
  ]),
);
/** Codes that name no language a viewer would pick: undetermined, uncoded, several, none. */
const NO_LANGUAGE = new Set(['und', 'mis', 'mul', 'zxx']);

/**
 * The ISO 639-2 code players read from an audio stream's language tag (`es` → `spa`, `fr` → `fre`): the
 * bibliographic form, which Matroska asks for and ffmpeg's MP4 writer takes too. `und` for a code it lacks.
 */
export function languageTag(code: string): string {
  return byTwoLetter.get(code.toLowerCase()) ?? 'und';
}

/**
 * The language a stream's own tag names (`eng`, `fra`, as a phone or an editor writes it), as its ISO 639-2
 * bibliographic code; null when it names none (`und`) or is not a code.
 */
export function streamLanguage(tag: string | undefined): string | null {
  const code = byThreeLetter.get(tag?.trim().toLowerCase() ?? '') ?? null;
  return code === null || NO_LANGUAGE.has(code) ? null : code;
}

const nameByThreeLetter = new Map(iso6392.map((l) => [l.iso6392B, l.name.split(';')[0] ?? l.name] as const));

/** The English name of an ISO 639-2 bibliographic code (`ger` → German), as players show a track's. */
export function tagName(code: string): string {
  return nameByThreeLetter.get(code) ?? code;
}

import { createHash } from 'node:crypto';

/** The longest name a file system takes (ext4, APFS, NTFS): bytes of UTF-8 (UTF-16 units on NTFS, fewer). */
export const NAME_MAX_BYTES = 255;
/**
 * What a result name adds to its stem at most: `.original (converted).webm` or `.zh-TW (service
 * format).webm`, a variant ` (9999)` and `.part` come to 40 bytes; the rest is room.
 */
export const RESULT_TAIL_BYTES = 48;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Bytes of a name as a file system may store it: composed (NFC) or, as HFS+ does, decomposed (NFD), which
 * takes more bytes (`é` is 2 bytes composed, 3 decomposed): the larger.
 */
export const nameBytes = (s: string) => Math.max(Buffer.byteLength(s), Buffer.byteLength(s.normalize('NFD')));

/**
 * The stem of a source's result names (`Movie` of `Movie.mp4`: `Movie.es.mp4`, `Movie.es.vtt`) made short
 * enough that the longest result name, with its `(N)` and `.part`, fits a file name. A longer one keeps its
 * first whole graphemes (never a code point or an accent cut off its letter) and ends in `~` and 8 hex
 * digits of the whole stem's hash: the same source name always gives the same stem, and two names that
 * differ only past the cut stay two.
 */
export function resultStem(stem: string): string {
  const room = NAME_MAX_BYTES - RESULT_TAIL_BYTES;
  if (nameBytes(stem) <= room) return stem;
  const tag = `~${createHash('sha256').update(stem.normalize('NFC')).digest('hex').slice(0, 8)}`;
  let kept = '';
  for (const { segment } of segmenter.segment(stem)) {
    if (nameBytes(kept + segment) > room - tag.length) break;
    kept += segment;
  }
  return `${kept.trimEnd()}${tag}`;
}

/**
 * The stem of a job's results: its source's name, with the audio track it dubs when that is not the first
 * (`Movie.track3` of `Movie.mp4`: `Movie.track3.es.mp4`), so the dubs of two tracks of one file into one
 * language lie side by side, neither taken for an earlier version of the other nor numbered `(2)`.
 */
export function jobStem(name: string, audioTrack: string): string {
  return resultStem(audioTrack === 'first' ? name : `${name}.track${audioTrack}`);
}

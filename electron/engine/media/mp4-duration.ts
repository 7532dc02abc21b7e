import { findBox, type ReadAt } from './mp4-boxes';

export type { ReadAt };

/**
 * A header may say less than the file holds (a byte patched, a broken muxer): a track longer than the
 * movie header by more than this is believed instead. Within it, the movie header stands (an audio track's
 * AAC priming makes it a fraction longer, which would push ceil() up a whole credit).
 */
export const LONGER_TRACK_SLACK_S = 1;

/**
 * The duration of an MP4/MOV: its `moov/mvhd` movie header (what the service measures and bills), unless
 * a track says it is longer (each `trak`'s `tkhd`, in the movie's timescale, and its `mdia/mdhd`, in its
 * own): then the longest track. Reads only box headers and the moov box, wherever it is.
 */
export async function mp4MovieDuration(read: ReadAt, size: number): Promise<number | null> {
  const moov = await findBox(read, 0, size, 'moov');
  if (!moov) return null;
  const mvhd = await findBox(read, moov.body, moov.end, 'mvhd');
  if (!mvhd) return null;
  const movie = await timed(read, mvhd.body, 12, 20);
  if (!movie) return null;
  const longest = await longestTrack(read, moov, movie.scale);
  const seconds = movie.units / movie.scale;
  return longest !== null && longest > seconds + LONGER_TRACK_SLACK_S ? longest : seconds;
}

/** A full box's timescale and duration (version 0: 32-bit fields at `at0`; version 1: 64-bit at `at1`). */
async function timed(
  read: ReadAt,
  body: number,
  at0: number,
  at1: number,
): Promise<{ scale: number; units: number } | null> {
  const head = await read(body, 36);
  if (head.length < 32) return null;
  const v1 = head.readUInt8(0) === 1;
  const scale = head.readUInt32BE(v1 ? at1 : at0);
  const units = v1 ? Number(head.readBigUInt64BE(at1 + 4)) : head.readUInt32BE(at0 + 4);
  if (!scale || !units || units === 0xffffffff) return null;
  return { scale, units };
}

/** The longest of the tracks, in seconds, by their track and media headers; null when none says. */
async function longestTrack(
  read: ReadAt,
  moov: { body: number; end: number },
  movieScale: number,
): Promise<number | null> {
  let longest: number | null = null;
  const take = (s: number) => (longest = Math.max(longest ?? 0, s));
  for (let at = moov.body, n = 0; n < 64; n++) {
    const trak = await findBox(read, at, moov.end, 'trak');
    if (!trak) break;
    at = trak.end;
    const tkhd = await findBox(read, trak.body, trak.end, 'tkhd');
    if (tkhd) {
      const head = await read(tkhd.body, 36);
      const v1 = head.length >= 36 && head.readUInt8(0) === 1;
      const units = v1 ? Number(head.readBigUInt64BE(28)) : head.length >= 24 ? head.readUInt32BE(20) : 0;
      if (units && units !== 0xffffffff) take(units / movieScale);
    }
    const mdia = await findBox(read, trak.body, trak.end, 'mdia');
    const mdhd = mdia ? await findBox(read, mdia.body, mdia.end, 'mdhd') : null;
    const media = mdhd ? await timed(read, mdhd.body, 12, 20) : null;
    if (media) take(media.units / media.scale);
  }
  return longest;
}

import { open } from 'node:fs/promises';
import { boxesIn as boxes, readMoov, type Box } from '../mp4-boxes';

/** A movie box bigger than this is not an audio file's or a rebuilt video's header: left as it is. */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;

/** A full box's duration field: where it is and how wide, by the box's version (mvhd, tkhd). */
function durationField(buf: Buffer, box: Box): { at: number; wide: boolean } {
  const wide = buf.readUInt8(box.body) === 1;
  if (box.type === 'mvhd') return { at: box.body + (wide ? 24 : 16), wide };
  return { at: box.body + (wide ? 28 : 20), wide };
}
const readField = (buf: Buffer, f: { at: number; wide: boolean }) =>
  f.wide ? Number(buf.readBigUInt64BE(f.at)) : buf.readUInt32BE(f.at);
function writeField(buf: Buffer, f: { at: number; wide: boolean }, value: number): void {
  if (f.wide) buf.writeBigUInt64BE(BigInt(value), f.at);
  else buf.writeUInt32BE(value, f.at);
}

interface EditList {
  wide: boolean;
  /** Where each entry's segment duration lies. */
  durations: number[];
}

/** A track's edit list: where its segments' durations are; null without one. */
function editListOf(buf: Buffer, trak: Box): EditList | null {
  for (const edts of boxes(buf, trak.body, trak.end)) {
    if (edts.type !== 'edts') continue;
    for (const elst of boxes(buf, edts.body, edts.end)) {
      if (elst.type !== 'elst') continue;
      const wide = buf.readUInt8(elst.body) === 1;
      const count = buf.readUInt32BE(elst.body + 4);
      const entry = wide ? 20 : 12;
      if (elst.body + 8 + count * entry > elst.end) return null;
      const durations = Array.from({ length: count }, (_, i) => elst.body + 8 + i * entry);
      return { wide, durations };
    }
  }
  return null;
}

const segment = (buf: Buffer, list: EditList, at: number) =>
  list.wide ? Number(buf.readBigUInt64BE(at)) : buf.readUInt32BE(at);

/**
 * Ends a track's edit list at `cap` (movie timescale) where it plays longer: the last segments are
 * shortened, the media is not touched. Returns what it plays now.
 */
function capEditList(buf: Buffer, list: EditList, cap: number): number {
  let played = 0;
  for (const at of list.durations) {
    const length = Math.min(segment(buf, list, at), Math.max(0, cap - played));
    if (list.wide) buf.writeBigUInt64BE(BigInt(length), at);
    else buf.writeUInt32BE(length, at);
    played += length;
  }
  return played;
}

/** The movie's timescale (units a second), from its header. */
function movieScale(buf: Buffer, mvhd: Box): number {
  const wide = buf.readUInt8(mvhd.body) === 1;
  return buf.readUInt32BE(mvhd.body + (wide ? 20 : 12));
}

/**
 * Makes an MP4's movie and track lengths what its edit lists play, and with `capSeconds` no longer than
 * that: each edit list ends there at the latest. ffmpeg's 2018 build (the one shipped) counts the AAC
 * encoder's priming in the headers (an M4A of 60.000 s of sound says 60.022 s), and a copied MP3 or a
 * re-encoded Opus brings frames that run past its source's end; the service, which bills whole seconds of
 * what it measures, would charge one more. Only the header's numbers change, in place: not a byte of the
 * media. Returns whether it changed anything.
 */
export async function lengthsAsEdited(path: string, capSeconds?: number): Promise<boolean> {
  const file = await open(path, 'r+');
  try {
    const moov = await readMoov(file, MAX_MOOV_BYTES);
    if (!moov) return false;
    const buf = moov.bytes;
    const original = Buffer.from(buf);
    const [top] = boxes(buf, 0, buf.length);
    if (!top) return false;
    const inside = [...boxes(buf, top.body, top.end)];
    const mvhd = inside.find((b) => b.type === 'mvhd');
    if (!mvhd) return false;
    const cap = capSeconds === undefined ? Infinity : Math.floor(capSeconds * movieScale(buf, mvhd));
    let longest = 0;
    for (const trak of inside.filter((b) => b.type === 'trak')) {
      const tkhd = [...boxes(buf, trak.body, trak.end)].find((b) => b.type === 'tkhd');
      if (!tkhd) return false;
      const field = durationField(buf, tkhd);
      const list = editListOf(buf, trak);
      const played = list ? capEditList(buf, list, cap) : null;
      let length = readField(buf, field);
      if (played !== null && played < length) {
        writeField(buf, field, played);
        length = played;
      }
      longest = Math.max(longest, length);
    }
    const field = durationField(buf, mvhd);
    if (longest > 0 && longest < readField(buf, field)) writeField(buf, field, longest);
    if (buf.equals(original)) return false;
    await file.write(buf, 0, buf.length, moov.at);
    return true;
  } catch (e) {
    // A header too short for what its boxes say: left as ffmpeg wrote it.
    if (e instanceof RangeError) return false;
    throw e;
  } finally {
    await file.close();
  }
}

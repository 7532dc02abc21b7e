/**
 * Durations read from the first bytes of a file, for the formats where the header says it exactly; null
 * sends the caller to the full parser. Each agrees with music-metadata on the files it accepts.
 */

const MPEG_RATES: Record<number, readonly number[]> = {
  3: [44100, 48000, 32000], // MPEG 1
  2: [22050, 24000, 16000], // MPEG 2
  0: [11025, 12000, 8000], // MPEG 2.5
};

/** After any ID3v2 tag: where the first MPEG audio frame starts. */
function id3v2End(b: Buffer): number {
  if (b.length < 10 || b.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((b[6] ?? 0) << 21) | ((b[7] ?? 0) << 14) | ((b[8] ?? 0) << 7) | (b[9] ?? 0);
  const footer = ((b[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * MP3 with a Xing/Info header giving the frame count (what LAME and ffmpeg write): frames x samples per
 * frame / sample rate, exactly as music-metadata computes it. Without one, null (the length would have to
 * be counted frame by frame).
 */
export function mp3Duration(b: Buffer): number | null {
  const at = id3v2End(b);
  if (at + 4 > b.length) return null;
  const h = b.readUInt32BE(at);
  if (h >>> 21 !== 0x7ff) return null;
  const version = (h >>> 19) & 3;
  const layer = (h >>> 17) & 3;
  const rateIndex = (h >>> 10) & 3;
  const mono = ((h >>> 6) & 3) === 3;
  const rate = MPEG_RATES[version]?.[rateIndex];
  if (!rate || layer !== 1) return null; // Layer III only
  const samplesPerFrame = version === 3 ? 1152 : 576;
  const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const xing = at + 4 + sideInfo;
  if (xing + 16 > b.length) return null;
  const tag = b.toString('latin1', xing, xing + 4);
  if (tag !== 'Xing' && tag !== 'Info') return null;
  const flags = b.readUInt32BE(xing + 4);
  // Frames and bytes both present, as music-metadata requires before it trusts the count.
  if ((flags & 3) !== 3) return null;
  const frames = b.readUInt32BE(xing + 8);
  return frames > 0 ? (frames * samplesPerFrame) / rate : null;
}

/** PCM WAV: the `data` chunk's size over the byte rate of `fmt `, when both are within the header read. */
export function wavDuration(b: Buffer): number | null {
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE')
    return null;
  let byteRate = 0;
  let pos = 12;
  while (pos + 8 <= b.length) {
    const id = b.toString('latin1', pos, pos + 4);
    const size = b.readUInt32LE(pos + 4);
    if (id === 'fmt ' && pos + 16 <= b.length) {
      if (b.readUInt16LE(pos + 8) !== 1) return null; // not plain PCM: let the full parser decide
      byteRate = b.readUInt32LE(pos + 16);
    }
    if (id === 'data') return byteRate > 0 && size > 0 && size !== 0xffffffff ? size / byteRate : null;
    pos += 8 + size + (size % 2);
  }
  return null;
}

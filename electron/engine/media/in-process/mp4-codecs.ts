import { boxesIn, type Box } from '../mp4-boxes';

/**
 * ffprobe's names for the codecs of an MP4/MOV sample entry, for the ones the send plan can decide on here.
 * An entry not named here (PCM, AC-3, Opus, FLAC, ProRes RAW, Dolby Vision…) is left to ffprobe.
 */
const VIDEO_ENTRIES: Record<string, string> = {
  avc1: 'h264',
  avc3: 'h264',
  hvc1: 'hevc',
  hev1: 'hevc',
  av01: 'av1',
  vp09: 'vp9',
  vp08: 'vp8',
  jpeg: 'mjpeg',
  apch: 'prores',
  apcn: 'prores',
  apcs: 'prores',
  apco: 'prores',
  ap4h: 'prores',
  ap4x: 'prores',
};

/** MPEG-4 systems' object types (an `esds` descriptor's) as ffprobe names them. */
const OBJECT_TYPES: Record<number, string> = {
  0x20: 'mpeg4',
  0x40: 'aac',
  0x66: 'aac',
  0x67: 'aac',
  0x68: 'aac',
  0x69: 'mp3',
  0x6b: 'mp3',
  0x60: 'mpeg2video',
  0x61: 'mpeg2video',
  0x62: 'mpeg2video',
  0x63: 'mpeg2video',
  0x64: 'mpeg2video',
  0x65: 'mpeg2video',
  0x6a: 'mpeg1video',
  0x6c: 'mjpeg',
};

/** What an `esds` box says: the stream's object type, and (AAC) its decoder configuration's first bytes. */
interface Esds {
  objectType: number;
  config: Buffer | null;
}

/** An MPEG-4 descriptor's length: up to four bytes of seven bits each. */
function descriptorAt(
  buf: Buffer,
  at: number,
  end: number,
): { tag: number; body: number; end: number } | null {
  if (at + 2 > end) return null;
  const tag = buf.readUInt8(at);
  let size = 0;
  let pos = at + 1;
  for (let i = 0; i < 4 && pos < end; i++) {
    const b = buf.readUInt8(pos++);
    size = (size << 7) | (b & 0x7f);
    if (!(b & 0x80)) break;
  }
  return pos + size <= end ? { tag, body: pos, end: pos + size } : null;
}

function readEsds(buf: Buffer, esds: Box): Esds | null {
  const es = descriptorAt(buf, esds.body + 4, esds.end);
  if (es?.tag !== 0x03) return null;
  const flags = buf.readUInt8(es.body + 2);
  let at = es.body + 3;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + buf.readUInt8(at);
  if (flags & 0x20) at += 2;
  const dec = descriptorAt(buf, at, es.end);
  if (dec?.tag !== 0x04 || dec.body + 13 > dec.end) return null;
  const info = descriptorAt(buf, dec.body + 13, dec.end);
  const config = info?.tag === 0x05 ? buf.subarray(info.body, info.end) : null;
  return { objectType: buf.readUInt8(dec.body), config };
}

/** The `esds` among a sample entry's boxes, or inside its QuickTime `wave` box. */
function findEsds(buf: Buffer, start: number, end: number): Esds | null {
  for (const b of boxesIn(buf, start, end)) {
    if (b.type === 'esds') return readEsds(buf, b);
    if (b.type === 'wave') return findEsds(buf, b.body, b.end);
  }
  return null;
}

/** A video sample entry's codec as ffprobe names it; null where only ffprobe can tell. */
export function videoCodec(buf: Buffer, entry: Box): string | null {
  if (entry.type !== 'mp4v') return VIDEO_ENTRIES[entry.type] ?? null;
  // A visual sample entry's own fields take 78 bytes; its boxes follow.
  const esds = findEsds(buf, entry.body + 78, entry.end);
  return esds ? (OBJECT_TYPES[esds.objectType] ?? null) : null;
}

/** AAC's channel configurations (ISO 14496-3, 1.6.3.4): the number of channels each stands for. */
const AAC_CHANNELS = [null, 1, 2, 3, 4, 5, 6, 8] as const;

/**
 * A sound sample entry's codec (AAC or MP3: the two the audio path copies as they are) and channels;
 * null for any other, which ffprobe reads.
 */
export function audioCodec(
  buf: Buffer,
  entry: Box,
): { codec: string; channels: number | null; sampleRate: number } | null {
  // A sound sample entry: 8 bytes of reserved fields and index, its version, and its boxes after 28 bytes
  // (44 and 64 in QuickTime's versions 1 and 2).
  if (entry.body + 28 > entry.end) return null;
  const version = buf.readUInt16BE(entry.body + 8);
  // The entry's rate (16.16 fixed point, whole part): what ffprobe reports for an MP3.
  const entryRate = buf.readUInt16BE(entry.body + 24);
  const boxesAt = entry.body + (version === 1 ? 44 : version === 2 ? 64 : 28);
  // An MP3's channels are in its frames (ffmpeg writes 2 in the entry for a mono one): read by the caller.
  if (entry.type === '.mp3')
    return entryRate ? { codec: 'mp3', channels: null, sampleRate: entryRate } : null;
  if (entry.type !== 'mp4a' || version === 2) return null;
  const esds = findEsds(buf, boxesAt, entry.end);
  const codec = esds ? OBJECT_TYPES[esds.objectType] : undefined;
  if (codec === 'mp3') return entryRate ? { codec, channels: null, sampleRate: entryRate } : null;
  if (codec !== 'aac' || !esds) return null;
  const config = aacConfig(esds.config);
  return config && { codec, ...config };
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/**
 * An AudioSpecificConfig's sample rate and channels. Null where ffprobe's answer may differ: HE-AAC (SBR,
 * PS) plays at twice its core rate, said outright (object types 5, 29) or only in the stream (a core rate
 * of 24 kHz or less may be one); an escaped type or rate. Channels are null where a program config element
 * says them.
 */
function aacConfig(config: Buffer | null): { channels: number | null; sampleRate: number } | null {
  if (!config || config.length < 2) return null;
  const bits = Buffer.concat([config.subarray(0, 4), Buffer.alloc(4)]).readUInt32BE(0);
  const objectType = bits >>> 27;
  const sampleRate = AAC_RATES[(bits >>> 23) & 0xf];
  if ([5, 29, 31].includes(objectType) || !sampleRate || sampleRate <= 24000) return null;
  return { channels: AAC_CHANNELS[(bits >>> 19) & 0xf] ?? null, sampleRate };
}

/** An MPEG audio frame header's channels (its mode: 3 is mono); null where the bytes are not one. */
export function mp3FrameChannels(header: Buffer): number | null {
  if (header.length < 4 || header.readUInt16BE(0) >>> 5 !== 0x7ff) return null;
  return header.readUInt8(3) >>> 6 === 3 ? 1 : 2;
}

import { open } from 'node:fs/promises';
import { boxesIn, readerOfFile, readMoovAt, type Box, type ReadAt } from '../mp4-boxes';
import type { PlanStreams } from '../ffmpeg/streams';
import { rescale, unitsAsSeconds } from './as-ffprobe';
import { audioCodec, mp3FrameChannels, videoCodec } from './mp4-codecs';

/** A movie header past this is a file ffprobe is better placed to read (hours of tiny samples). */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

/** Thrown inside the walk for anything only ffprobe can settle; the walk then answers null. */
class AskFfprobe extends Error {}

const child = (buf: Buffer, parent: Box, type: string) =>
  [...boxesIn(buf, parent.body, parent.end)].find((b) => b.type === type) ?? null;
const need = (box: Box | null): Box => {
  if (!box) throw new AskFfprobe();
  return box;
};

/** A full box's timescale and duration (mvhd, mdhd: 32-bit fields, or 64-bit in version 1). */
function timed(buf: Buffer, box: Box): { scale: number; units: bigint } {
  const wide = buf.readUInt8(box.body) === 1;
  const scale = buf.readUInt32BE(box.body + (wide ? 20 : 12));
  const units = wide ? buf.readBigUInt64BE(box.body + 24) : BigInt(buf.readUInt32BE(box.body + 16));
  if (!scale || units === 0n || units === 0xffffffffn || units === 0xffffffffffffffffn)
    throw new AskFfprobe();
  return { scale, units };
}

interface Track {
  handler: string;
  stbl: Box;
  media: { scale: number; units: bigint };
  /** The one edit's length in the movie's timescale; null without an edit list. */
  edit: bigint | null;
  /** Pictures shown in another order than stored (`ctts`): without an edit, its first time may not be 0. */
  reordered: boolean;
}

/**
 * A track's single edit: its length. An empty edit (a track that starts late), several edits, or a rate
 * other than 1 change what ffprobe reports in ways only its own code settles.
 */
function singleEdit(buf: Buffer, trak: Box): bigint | null {
  const edts = child(buf, trak, 'edts');
  const elst = edts ? child(buf, edts, 'elst') : null;
  if (!elst) return null;
  const wide = buf.readUInt8(elst.body) === 1;
  if (buf.readUInt32BE(elst.body + 4) !== 1) throw new AskFfprobe();
  const at = elst.body + 8;
  const length = wide ? buf.readBigUInt64BE(at) : BigInt(buf.readUInt32BE(at));
  const mediaTime = wide ? buf.readBigInt64BE(at + 8) : BigInt(buf.readInt32BE(at + 4));
  const rate = buf.readUInt32BE(at + (wide ? 16 : 8));
  if (mediaTime < 0n || rate !== 0x10000) throw new AskFfprobe();
  return length;
}

function trackOf(buf: Buffer, trak: Box): Track {
  const mdia = need(child(buf, trak, 'mdia'));
  const hdlr = need(child(buf, mdia, 'hdlr'));
  const minf = need(child(buf, mdia, 'minf'));
  const stbl = need(child(buf, minf, 'stbl'));
  return {
    handler: buf.toString('latin1', hdlr.body + 8, hdlr.body + 12),
    stbl,
    reordered: child(buf, stbl, 'ctts') !== null,
    media: timed(buf, need(child(buf, mdia, 'mdhd'))),
    edit: singleEdit(buf, trak),
  };
}

/** The first sample entry of a track's `stsd`. */
function sampleEntry(buf: Buffer, track: Track): Box {
  const stsd = need(child(buf, track.stbl, 'stsd'));
  const [entry] = boxesIn(buf, stsd.body + 8, stsd.end);
  return need(entry ?? null);
}

/**
 * The bytes of a track's samples (its `stsz` table summed, or one size for all): ffprobe's bit rate is
 * their bits over the media header's length, rounded down.
 */
function sampleBytes(buf: Buffer, track: Track): bigint {
  const stsz = need(child(buf, track.stbl, 'stsz'));
  const size = buf.readUInt32BE(stsz.body + 4);
  const count = buf.readUInt32BE(stsz.body + 8);
  if (size !== 0) return BigInt(size) * BigInt(count);
  if (stsz.body + 12 + count * 4 > stsz.end) throw new AskFfprobe();
  let total = 0;
  for (let i = 0, at = stsz.body + 12; i < count; i++, at += 4) total += buf.readUInt32BE(at);
  return BigInt(total);
}

/** A track's length in its media's timescale as ffprobe gives it: its media's, or its edit's if shorter. */
function playedUnits(track: Track, movieScale: number): bigint {
  if (track.edit === null) return track.media.units;
  const edited = rescale(track.edit, BigInt(track.media.scale), BigInt(movieScale));
  return edited < track.media.units ? edited : track.media.units;
}

const isPictureOrSound = (t: Track) => t.handler === 'vide' || t.handler === 'soun';

/**
 * The file's length as ffprobe gives it: not the movie header's, but its longest picture or sound track's
 * (each from 0), to the microsecond. Null where that is not settled here: a picture without an edit whose
 * first time may not be 0, or another track (chapters, text, timecode) running past them, which one ffprobe
 * counts and another not.
 */
function fileMicroseconds(tracks: readonly Track[], movieScale: number): bigint | null {
  const us = (t: Track) => rescale(playedUnits(t, movieScale), 1_000_000n, BigInt(t.media.scale));
  let longest = 0n;
  for (const t of tracks.filter(isPictureOrSound)) {
    if (t.handler === 'vide' && t.edit === null && t.reordered) return null;
    if (us(t) > longest) longest = us(t);
  }
  if (longest === 0n || tracks.some((t) => !isPictureOrSound(t) && us(t) > longest)) return null;
  return longest;
}

/** Samples a frame holds, for the codecs read here (ffprobe's count of frames past the timeline). */
const SAMPLES_PER_FRAME: Record<string, number> = { aac: 1024, mp3: 1152 };

/**
 * The first sound as ffprobe gives it: its bit rate, length, and frames beyond what its timeline plays
 * (its sample count less its length's worth: many more than an encoder's delay mean pieces joined).
 */
function soundOf(
  buf: Buffer,
  sound: Track,
  audio: { codec: string; channels: number | null; sampleRate: number },
  movieScale: number,
): NonNullable<PlanStreams['audio']> {
  const stsz = need(child(buf, sound.stbl, 'stsz'));
  const frames = buf.readUInt32BE(stsz.body + 8);
  const durationSeconds = unitsAsSeconds(Number(playedUnits(sound, movieScale)), sound.media.scale);
  const perFrame = SAMPLES_PER_FRAME[audio.codec];
  return {
    codec: audio.codec,
    channels: audio.channels,
    bitRate: Number((sampleBytes(buf, sound) * 8n * BigInt(sound.media.scale)) / sound.media.units) || null,
    durationSeconds,
    extraFrames: frames && perFrame ? frames - (durationSeconds * audio.sampleRate) / perFrame : null,
  };
}

/** Where a track's first sample lies in the file: its first chunk's offset (`stco`, or `co64`). */
function firstSampleAt(buf: Buffer, track: Track): number {
  const stco = child(buf, track.stbl, 'stco');
  if (stco && buf.readUInt32BE(stco.body + 4) > 0) return buf.readUInt32BE(stco.body + 8);
  const co64 = need(child(buf, track.stbl, 'co64'));
  if (buf.readUInt32BE(co64.body + 4) === 0) throw new AskFfprobe();
  return Number(buf.readBigUInt64BE(co64.body + 8));
}

/** The streams, and where an MP3 sound's first frame is, whose header says its channels. */
function streamsOf(buf: Buffer): { streams: PlanStreams; mp3At: number | null } | null {
  const [moov] = boxesIn(buf, 0, buf.length);
  if (!moov || moov.type !== 'moov') return null;
  const inside = [...boxesIn(buf, moov.body, moov.end)];
  // Fragments (`mvex`) add to the movie after its header: ffprobe counts them.
  if (inside.some((b) => b.type === 'mvex')) return null;
  const movie = timed(buf, need(inside.find((b) => b.type === 'mvhd') ?? null));
  const tracks = inside.filter((b) => b.type === 'trak').map((t) => trackOf(buf, t));
  const fileUs = fileMicroseconds(tracks, movie.scale);
  if (fileUs === null) return null;
  // Several sound tracks: ffprobe lists them all, with their languages and titles, for choosing one.
  if (tracks.filter((t) => t.handler === 'soun').length > 1) return null;
  const video = tracks.find((t) => t.handler === 'vide');
  const sound = tracks.find((t) => t.handler === 'soun');
  const videoName = video ? videoCodec(buf, sampleEntry(buf, video)) : null;
  if (video && !videoName) return null;
  const audio = sound ? audioCodec(buf, sampleEntry(buf, sound)) : null;
  if (sound && !audio) return null;
  const streams = {
    video: videoName ? { codec: videoName } : null,
    audio: sound && audio ? soundOf(buf, sound, audio, movie.scale) : null,
    durationSeconds: unitsAsSeconds(Number(fileUs), 1_000_000),
  };
  return { streams, mp3At: sound && audio?.codec === 'mp3' ? firstSampleAt(buf, sound) : null };
}

/**
 * What the send plan reads of an MP4/MOV, from its movie header alone: null where only ffprobe can tell
 * (fragments, several edits or a late start, a codec not named in mp4-codecs.ts, a header that does not
 * hold together).
 */
export async function mp4Streams(path: string): Promise<PlanStreams | null> {
  const file = await open(path, 'r');
  try {
    return await mp4StreamsAt(readerOfFile(file), (await file.stat()).size);
  } finally {
    await file.close();
  }
}

/** `mp4Streams` through a reader: probing's, which has the start of the file in memory already. */
export async function mp4StreamsAt(read: ReadAt, size: number): Promise<PlanStreams | null> {
  try {
    const moov = await readMoovAt(read, size, MAX_MOOV_BYTES);
    const found = moov ? streamsOf(moov.bytes) : null;
    if (!found?.streams.audio || found.mp3At === null) return found?.streams ?? null;
    const channels = mp3FrameChannels(await read(found.mp3At, 4));
    return channels ? { ...found.streams, audio: { ...found.streams.audio, channels } } : null;
  } catch (e) {
    if (e instanceof AskFfprobe || e instanceof RangeError) return null;
    throw e;
  }
}

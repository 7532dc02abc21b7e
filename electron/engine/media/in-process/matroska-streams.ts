import { openAsBlob } from 'node:fs';
import { parseBlob } from 'music-metadata';
import type { PlanStreams } from '../ffmpeg/streams';
import { unitsAsSeconds } from './as-ffprobe';

/** Matroska codec IDs as ffprobe names them, for the ones the send plan can decide on here. */
const VIDEO_CODECS: Record<string, string> = {
  'V_MPEG4/ISO/AVC': 'h264',
  'V_MPEGH/ISO/HEVC': 'hevc',
  V_AV1: 'av1',
  V_VP8: 'vp8',
  V_VP9: 'vp9',
  'V_MPEG4/ISO/ASP': 'mpeg4',
  'V_MPEG4/ISO/SP': 'mpeg4',
  'V_MPEG4/ISO/AP': 'mpeg4',
  V_MPEG1: 'mpeg1video',
  V_MPEG2: 'mpeg2video',
  V_MJPEG: 'mjpeg',
  V_THEORA: 'theora',
  V_PRORES: 'prores',
};

/**
 * Sound codecs. MP3 is left out: ffprobe's parser reads its bit rate from the frames, which the estimate
 * uses (MP3 is copied as it is); PCM is named by its sample format, which the track alone does not settle.
 */
const AUDIO_CODECS: Record<string, string> = {
  A_AAC: 'aac',
  A_OPUS: 'opus',
  A_VORBIS: 'vorbis',
  A_AC3: 'ac3',
  A_EAC3: 'eac3',
  A_FLAC: 'flac',
  'A_MPEG/L2': 'mp2',
  A_DTS: 'dts',
  A_ALAC: 'alac',
};
const audioName = (id: string) => AUDIO_CODECS[id.startsWith('A_AAC') ? 'A_AAC' : id];

/**
 * ffprobe's length of a Matroska file: the segment's Duration in its timescale, cut to whole microseconds
 * (ffmpeg truncates). music-metadata gives it in seconds; back in microseconds, a length that was whole
 * (the usual milliseconds) can land a hair under, so a value that close is taken as whole.
 */
function segmentSeconds(seconds: number): number {
  const us = seconds * 1e6;
  const whole = Math.round(us);
  return unitsAsSeconds(Math.abs(us - whole) < 1e-3 ? whole : Math.floor(us), 1_000_000);
}

/**
 * What the send plan reads of a Matroska or WebM file, from music-metadata's reading of its tracks and
 * segment info: null where only ffprobe can tell (no Duration, as a browser's recording has none; a codec
 * not named above; no tracks read). Matroska keeps no length, frame count or bit rate per track: ffprobe gives none.
 */
export async function matroskaStreams(path: string): Promise<PlanStreams | null> {
  // Parsed as the type its bytes say, not its name (an MKV named .mp4 is still an MKV); the file is read
  // where the parser asks, its clusters skipped by the segment's index. Some 10 to 30 ms a file, mostly
  // waiting on small reads, none of it a long hold of the event loop.
  const file = await openAsBlob(path, { type: 'video/matroska' });
  const meta = await parseBlob(file, { duration: false, skipCovers: true, mkvUseIndex: true }).catch(
    () => null,
  );
  const tracks = meta?.format.trackInfo ?? [];
  const seconds = meta?.format.duration;
  if (!tracks.length || !seconds || !Number.isFinite(seconds)) return null;
  // Several sound tracks: ffprobe lists them all, with their languages and titles, for choosing one.
  if (tracks.filter((t) => t.type === 2).length > 1) return null;
  const video = tracks.find((t) => t.type === 1);
  const sound = tracks.find((t) => t.type === 2);
  const videoCodec = video ? VIDEO_CODECS[video.codecId ?? ''] : undefined;
  const audioCodec = sound ? audioName(sound.codecId ?? '') : undefined;
  if ((video && !videoCodec) || (sound && !audioCodec)) return null;
  return {
    video: videoCodec ? { codec: videoCodec } : null,
    audio: audioCodec
      ? {
          codec: audioCodec,
          channels: sound?.audio?.channels ?? null,
          bitRate: null,
          durationSeconds: null,
          extraFrames: null,
        }
      : null,
    durationSeconds: segmentSeconds(seconds),
  };
}

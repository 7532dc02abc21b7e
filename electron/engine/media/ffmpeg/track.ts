import {
  describeTrack,
  listTracks,
  pickTrack,
  type AudioTrack,
  type AudioTrackInfo,
} from '../../../../shared/contract/audio-track';
import type { AudioStream, MediaStreams } from './streams';

/** A file's audio streams as a face lists them: number, language, title, channels. */
export function trackInfos(audios: readonly AudioStream[]): AudioTrackInfo[] {
  return audios.map((a, i) => ({
    number: i + 1,
    language: a.language,
    title: a.title ?? null,
    channels: a.channels,
    codec: a.codec,
  }));
}

/**
 * The track a job's choice names, as it is stored once resolved: `first` for the first, else its number.
 * A language resolves to a number, so `eng` and `2` naming one track are one dub (paid once).
 */
export const storedTrack = (number: number): AudioTrack => (number === 1 ? 'first' : String(number));

/**
 * The streams with the chosen track as the one dubbed (`audio`), or null when the file has no such track.
 * Everything the audio path, QC and the package read of "the sound" is then that track's.
 */
export function withTrack(streams: MediaStreams, track: AudioTrack): MediaStreams | null {
  if (track === 'first') return streams;
  const picked = pickTrack(streams.audios, track);
  return picked ? { ...streams, audio: picked.track } : null;
}

/** Why a file cannot be dubbed from the track asked for: it has none such. Names its tracks and the fix. */
export function noSuchTrack(path: string, track: AudioTrack, audios: readonly AudioStream[]) {
  return {
    message: `${path} has no ${describeTrack(track).replace(/^the /, '')}: its audio tracks are ${listTracks(trackInfos(audios))}`,
    remedy:
      audios.length === 0
        ? 'Add the version of the file that has its sound track.'
        : `Choose one of its tracks (1 to ${audios.length}, or a language it has), or the first.`,
  };
}

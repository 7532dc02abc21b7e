import {
  describeTrack,
  listTracks,
  pickTrack,
  type AudioTrack,
} from '../../../../shared/contract/audio-track';
import type { ApiGeneration, Send } from '../../../../shared/contract/jobs';
import { mapInTurns } from '../../files/in-turns';
import type { ToolsSearch } from '../../../media-tools/locate';
import { probeStreams, type MediaStreams } from '../../media/ffmpeg/streams';
import { noSuchTrack, trackInfos } from '../../media/ffmpeg/track';
import type { ProbedFile } from '../../media/probe';
import { sendChoiceFor, whole, type SendChoice } from './send-choice';

/** `first` and `1` name the same track: the one every face dubbed before tracks could be chosen. */
export const isFirstTrack = (track: AudioTrack) => track === 'first' || track === '1';

/** ffprobe reads a few files at once: each is a short process, and two cores are shared with the queue. */
const PROBES_AT_ONCE = 4;

const refusedAs = (
  f: Pick<ProbedFile, 'bytes' | 'durationSeconds'>,
  refused: SendChoice['refused'],
): SendChoice => ({ ...whole(f, null), ...(refused ? { refused } : {}) });

/**
 * Each file's send choice for a track other than the first: its streams read by ffprobe (which lists every
 * audio track), the track found by number or language, and what is sent decided for that track. A file
 * without that track, or one whose whole file would go (the service then dubs its first track, which is
 * not the one asked for), is refused before anything is paid, saying which tracks it has and what to do.
 */
export async function planChosenTrack(
  files: readonly ProbedFile[],
  track: AudioTrack,
  send: Send,
  api: ApiGeneration,
  search: ToolsSearch,
  take: (f: ProbedFile, choice: SendChoice, streams: MediaStreams | null) => void,
): Promise<void> {
  const { tools } = search;
  if (!tools) {
    for (const f of files)
      take(
        f,
        refusedAs(f, {
          message: `${f.path}: choosing ${describeTrack(track)} needs ffmpeg to find it, and none is found`,
          remedy:
            'Install ffmpeg (with ffprobe), or set DUBDESK_FFMPEG to an ffmpeg, then add it again; or dub its first track.',
        }),
        null,
      );
    return;
  }
  await mapInTurns(files, PROBES_AT_ONCE, async (f) => {
    const streams = await probeStreams(tools.ffprobe, f.path).catch(() => null);
    take(f, choiceFor(f, streams, track, send, api), streams);
  });
}

function choiceFor(
  f: ProbedFile,
  streams: MediaStreams | null,
  track: AudioTrack,
  send: Send,
  api: ApiGeneration,
): SendChoice {
  if (!streams)
    return refusedAs(f, {
      message: `${f.path}: ffprobe could not read its streams, so ${describeTrack(track)} cannot be found in it`,
      remedy: 'Check that the file plays, or dub its first track.',
    });
  const picked = pickTrack(streams.audios, track);
  if (!picked) return refusedAs(f, noSuchTrack(f.path, track, streams.audios));
  const tracks = trackInfos(streams.audios);
  const chosen = { ...streams, audio: picked.track };
  const choice =
    f.kind === 'video' ? sendChoiceFor(f, chosen, send, api) : whole(f, 'it is sound alone, sent whole');
  if (picked.number === 1 || choice.what === 'audio') return { ...choice, track: picked.number, tracks };
  // The whole file goes: the service hears its first track, not the one asked for.
  const label = (n: number) => {
    const t = tracks[n - 1];
    return t ? listTracks([t]) : String(n);
  };
  const why =
    send === 'file' && f.kind === 'video'
      ? 'the whole file is sent (--send file, or DUBDESK_SEND=file)'
      : choice.why;
  return refusedAs(f, {
    message:
      `${f.path}: ${why ?? 'the whole file is sent'}, and the service dubs a whole file's first audio ` +
      `track, ${label(1)}, not track ${label(picked.number)}`,
    remedy:
      f.kind === 'video' && send === 'file'
        ? `Send only its sound (--send audio, or "Only the sound" in the Send choice): Dubdesk then sends audio track ${picked.number} alone.`
        : `Make a file of that track first (ffmpeg -i "${f.path}" -map 0:a:${picked.number - 1} -c copy track${picked.number}.mka), then dub that file.`,
  });
}

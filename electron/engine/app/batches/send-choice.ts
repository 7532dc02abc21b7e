import type { BatchRequest } from '../../../../shared/contract/batches';
import type { AudioTrackInfo } from '../../../../shared/contract/audio-track';
import type { Send } from '../../../../shared/contract/jobs';
import { audioBytes, audioPlan } from '../../media/ffmpeg/audio-plan';
import { soundSeconds, type PlanStreams } from '../../media/ffmpeg/streams';
import type { ProbedFile } from '../../media/probe';

/** What one file sends for each of its languages, and why the whole file when the sound alone was asked. */
export interface SendChoice {
  what: Send;
  bytes: number;
  why: string | null;
  /**
   * How long the service will measure what is sent, and so bill (null: unknown): the sound's length on the
   * audio path (the sound sent is made no longer: extract.ts), the file's on the whole-file path.
   */
  seconds: number | null;
  /** The audio track dubbed, by its number among the file's audio tracks (absent: the first). */
  track?: number;
  /** Its audio tracks, where they were read (every one: ffprobe's reading). */
  tracks?: AudioTrackInfo[];
  /** Why the file cannot be dubbed from the track asked for (track-plan.ts); never paid for. */
  refused?: { message: string; remedy: string };
}

/** Why a video is not sent at all: the service dubs a voice, and charges even for a dub of silence. */
export const NO_SOUND = 'it has no sound to dub';

export const whole = (f: Pick<ProbedFile, 'bytes' | 'durationSeconds'>, why: string | null): SendChoice => ({
  what: 'file',
  bytes: f.bytes,
  why,
  seconds: f.durationSeconds,
});

/** What one video sends, from its streams (null: they could not be read). */
export function sendChoiceFor(
  f: Pick<ProbedFile, 'bytes' | 'durationSeconds'>,
  streams: PlanStreams | null,
  send: Send,
  api: BatchRequest['api'],
): SendChoice {
  if (!streams) return whole(f, send === 'file' ? null : 'ffprobe could not read its streams');
  if (!streams.audio) return whole(f, NO_SOUND);
  if (send === 'file') return whole(f, null);
  if (!streams.video) return whole(f, 'it has no picture to keep');
  const plan = audioPlan(streams.audio, api);
  // A file that does not say how long it is: its sound weighs at most the file.
  const seconds = soundSeconds(streams) ?? f.durationSeconds;
  const bytes = seconds === null ? f.bytes : Math.min(f.bytes, audioBytes(plan, seconds));
  return { what: 'audio', bytes, why: null, seconds };
}

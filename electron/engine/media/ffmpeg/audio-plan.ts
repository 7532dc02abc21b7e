import type { ApiGeneration } from '../../../../shared/contract/jobs';
import { joinedFromPieces, type PlanStreams } from './streams';

/**
 * The sound re-encoded follows its timestamps, as the picture does: where pieces joined by stream copy
 * overlap (or leave a gap) by more than 10 ms, samples are dropped (or silence put in), so what is sent
 * plays as long as the source and the dub stays with the picture.
 */
const ON_THE_TIMELINE = ['-af', 'aresample=async=1:min_hard_comp=0.01'];

/**
 * How a source's sound is sent. The service takes "video or audio" (v2 `file`, v1 `fileType` such as
 * audio/mpeg) and legacy takes only `video/mp4`, so:
 * - AAC is copied as it is, into an M4A (v2, v1) or an audio-only MP4 (legacy), unless joined from pieces
 *   (`joinedFromPieces`): then it is re-encoded on its timeline, as below;
 * - MP3 is copied as it is, into an M4A too (v2, v1): a bare .mp3 lasts its whole frames (1152 samples each,
 *   plus the encoder's delay), 24 ms or more past its source's end, and the service bills whole seconds of
 *   that; an MP4's edit list says where the sound ends;
 * - anything else (Opus, Vorbis, AC-3, E-AC-3, DTS, PCM, FLAC, ALAC, MP2…), and MP3 for legacy, becomes AAC-LC
 *   at 96 kb/s a channel, at most two channels (192 kb/s stereo): ffmpeg's own encoder, in every build,
 *   transparent for speech, which is all the service listens to (voices isolated, transcribed, cloned), and
 *   about 1.4 MB a minute where FLAC would be 5 to 8 times that. Surround is folded to stereo: the dub
 *   replaces the whole soundtrack anyway.
 */
export interface AudioPlan {
  copy: boolean;
  /** ffmpeg's muxer and the file's extension. */
  muxer: 'mp4';
  ext: 'm4a' | 'mp4';
  /** The type declared to the service. */
  mime: string;
  /** The codec options for ffmpeg. */
  codecArgs: string[];
  /** Bits a second of what is sent (for the estimate). */
  bitRate: number;
}

export const INTERMEDIATE_BITS_PER_CHANNEL = 96_000;

export function audioPlan(audio: NonNullable<PlanStreams['audio']>, api: ApiGeneration): AudioPlan {
  const legacy = api === 'legacy';
  const container = legacy
    ? ({ muxer: 'mp4', ext: 'mp4', mime: 'video/mp4' } as const)
    : ({ muxer: 'mp4', ext: 'm4a', mime: 'audio/mp4' } as const);
  const sourceRate = audio.bitRate ?? 128_000;
  const copyable = audio.codec === 'aac' || (audio.codec === 'mp3' && !legacy);
  if (copyable && !joinedFromPieces(audio))
    return { copy: true, ...container, codecArgs: ['-c:a', 'copy'], bitRate: sourceRate };
  const channels = Math.min(2, Math.max(1, audio.channels ?? 2));
  const bitRate = channels * INTERMEDIATE_BITS_PER_CHANNEL;
  return {
    copy: false,
    ...container,
    codecArgs: [...ON_THE_TIMELINE, '-c:a', 'aac', '-b:a', String(bitRate), '-ac', String(channels)],
    bitRate,
  };
}

/** What the extracted file will weigh, near enough for "sends 9.6 MB (audio)": its bit rate over its length. */
export function audioBytes(plan: AudioPlan, seconds: number): number {
  // A container's own bytes are about 1% of an AAC or MP3 stream.
  return Math.ceil(((plan.bitRate * seconds) / 8) * 1.01);
}

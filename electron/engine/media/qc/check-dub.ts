import { readFile } from 'node:fs/promises';
import type { LoudnessTarget, Qc, QcProblem } from '../../../../shared/contract/deliver';
import type { MediaTools } from '../../../media-tools/locate';
import { MediaToolError } from '../../../media-tools/run';
import { ToolHostGoneError } from '../../../media-tools/tool-host';
import { probeStreams } from '../ffmpeg/streams';
import type { AudioTrack } from '../../../../shared/contract/audio-track';
import { measureAudio, measureSource, NoSoundError, type AudioMeasure, type Silence } from './measure';
import { judge, type LengthOf } from './rules';
import { checkSubtitles } from './subtitle-checks';

/** The dubbed sound a video made here (sending the sound alone) was made from, as the service sent it. */
export interface MadeFrom {
  /** That sound (null: since gone); only its length is read. */
  sound: string | null;
  /**
   * A copy's video is the video of the job it was linked from, whose sound is gone by now: the dub's length
   * less the source's as that job's QC recorded it (the same content); null or absent when not known.
   */
  copiedDelta?: number | null;
}

export interface DubFiles {
  /** The dubbed media the user is handed (video or audio); null when only subtitles were asked for. */
  media: string | null;
  /** That media is a video made here from this dubbed sound. Absent: the media is the service's own file. */
  madeFrom?: MadeFrom;
  /** The dub's WebVTT subtitles; null when none were downloaded. */
  subtitles: string | null;
  /** The dub's job, named in what to do (the command that judges it against another target). */
  jobId?: number;
}

export interface SourceFacts {
  /** The length the dub's sound is held against (seconds; see `lengthOf`); null when unknown. */
  seconds: number | null;
  lengthOf: LengthOf;
  /** The file's length as probed when it was added: how far its subtitles may run. */
  fileSeconds: number | null;
  /** Where the source is silent; null when unknown (a URL source, a file since gone). */
  silences: Silence[] | null;
  /** Its integrated loudness (LUFS); null when unknown or silent. */
  lufs: number | null;
}

const unchecked = (what: string, e: unknown): QcProblem => ({
  code: 'unchecked',
  severity: 'warn',
  message: `${what} could not be checked: ${e instanceof MediaToolError || e instanceof Error ? e.message : String(e)}`,
  remedy: 'Check the file still opens; QC runs again when the job is retried or its source packaged again.',
});

/**
 * A source's facts for QC, of the audio track that was dubbed (`track`): the length of its sound, its pauses and its loudness, read in one pass and
 * shared by all its languages. A source that cannot be read (moved, a URL) gives what is known: the
 * file's length as probed when it was added.
 */
export async function sourceFacts(
  tools: MediaTools,
  path: string | null,
  knownSeconds: number | null,
  signal?: AbortSignal,
  track: AudioTrack = 'first',
): Promise<SourceFacts> {
  const asFile = { seconds: knownSeconds, lengthOf: 'file', fileSeconds: knownSeconds } as const;
  if (!path) return { ...asFile, silences: null, lufs: null };
  try {
    const measured = await measureSource(tools, path, { expectedSeconds: knownSeconds, signal, track });
    return {
      seconds: measured.durationSeconds,
      lengthOf: 'sound',
      fileSeconds: knownSeconds ?? measured.durationSeconds,
      silences: measured.silences,
      lufs: measured.integratedLufs,
    };
  } catch (e) {
    if (signal?.aborted || e instanceof ToolHostGoneError) throw e;
    // A picture with no sound: nobody speaks anywhere.
    if (e instanceof NoSoundError)
      return {
        ...asFile,
        silences: knownSeconds ? [{ start: 0, end: knownSeconds }] : [],
        lufs: null,
      };
    return { ...asFile, silences: null, lufs: null };
  }
}

/**
 * How long a dubbed sound plays, read as the rebuild read it (ffprobe); null when it is gone or unreadable.
 * Never throws: it runs beside the measurement, which says when the check was stopped.
 */
async function soundSeconds(tools: MediaTools, path: string | null, signal?: AbortSignal) {
  if (path === null) return null;
  try {
    const s = await probeStreams(tools.ffprobe, path, signal, 'service');
    return s.durationSeconds ?? s.audio?.durationSeconds ?? null;
  } catch {
    return null;
  }
}

/** The dub's own length in a video made here: read from its sound, else from what its copy's donor knew. */
async function madeFromSeconds(
  tools: MediaTools,
  made: MadeFrom,
  source: SourceFacts,
  signal?: AbortSignal,
): Promise<number | null> {
  if (made.sound !== null) return soundSeconds(tools, made.sound, signal);
  const delta = made.copiedDelta ?? null;
  return delta !== null && source.seconds !== null ? source.seconds + delta : null;
}

/**
 * QC of one finished dub from the files the user is handed: one ffmpeg pass over the sound of its media
 * (the picture is not decoded), its subtitles read. A video made here is measured as it is, the dub fitted
 * to its picture and encoded to AAC; the sound it was made from gives only the dub's own length.
 */
export async function checkDub(
  tools: MediaTools,
  files: DubFiles,
  source: SourceFacts,
  target: LoudnessTarget,
  signal?: AbortSignal,
): Promise<Qc> {
  const extra: QcProblem[] = [];
  let audio: AudioMeasure | null = null;
  let noAudioStream = false;
  const dubSeconds = files.madeFrom ? madeFromSeconds(tools, files.madeFrom, source, signal) : null;
  if (files.media) {
    try {
      audio = await measureAudio(tools, files.media, { expectedSeconds: source.seconds, signal });
    } catch (e) {
      if (signal?.aborted || e instanceof ToolHostGoneError) throw e;
      if (e instanceof NoSoundError) noAudioStream = true;
      else extra.push(unchecked('the dubbed media', e));
    }
  }
  let subtitleProblems: QcProblem[] = [];
  if (files.subtitles) {
    try {
      const vtt = await readFile(files.subtitles, 'utf8');
      // The file's length (its picture's): a dub's sound cut short must not make its cues look late.
      subtitleProblems = checkSubtitles(
        vtt,
        source.fileSeconds ?? source.seconds ?? audio?.durationSeconds ?? null,
      );
    } catch (e) {
      extra.push(unchecked('the subtitles', e));
    }
  }
  return judge({
    audio,
    measured: files.media ? { path: files.media, kind: files.madeFrom ? 'rebuilt' : 'downloaded' } : null,
    dubSeconds: await dubSeconds,
    noAudioStream,
    sourceSeconds: source.seconds,
    sourceLengthOf: source.lengthOf,
    sourceSilences: source.silences,
    sourceLufs: source.lufs,
    subtitleProblems,
    target,
    extra,
    jobId: files.jobId ?? null,
  });
}

import { readFile } from 'node:fs/promises';
import type { LoudnessTarget, Qc, QcProblem } from '../../../../shared/contract/deliver';
import type { MediaTools } from '../../../media-tools/locate';
import { MediaToolError } from '../../../media-tools/run';
import { ToolHostGoneError } from '../../../media-tools/tool-host';
import { measureAudio, measureSource, NoSoundError, type AudioMeasure, type Silence } from './measure';
import { judge, type LengthOf } from './rules';
import { checkSubtitles } from './subtitle-checks';

export interface DubFiles {
  /** The dubbed media downloaded (video or audio); null when only subtitles were asked for. */
  media: string | null;
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
 * A source's facts for QC: the length of its sound, its pauses and its loudness, read in one pass and
 * shared by all its languages. A source that cannot be read (moved, a URL) gives what is known: the
 * file's length as probed when it was added.
 */
export async function sourceFacts(
  tools: MediaTools,
  path: string | null,
  knownSeconds: number | null,
  signal?: AbortSignal,
): Promise<SourceFacts> {
  const asFile = { seconds: knownSeconds, lengthOf: 'file', fileSeconds: knownSeconds } as const;
  if (!path) return { ...asFile, silences: null, lufs: null };
  try {
    const measured = await measureSource(tools, path, { expectedSeconds: knownSeconds, signal });
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

/** QC of one finished dub from its files on disk: one ffmpeg pass over its sound, its subtitles read. */
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

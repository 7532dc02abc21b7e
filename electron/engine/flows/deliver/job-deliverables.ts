import { createHash } from 'node:crypto';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { LoudnessTarget, Qc, SubtitleFormats } from '../../../../shared/contract/deliver';
import type { MediaTools } from '../../../media-tools/locate';
import { checkDub, type MadeFrom, type SourceFacts } from '../../media/qc/check-dub';
import { SubtitleConversionError } from '../../media/subtitles/conversion-error';
import { srtBeside } from '../../outputs/deliver-names';
import { sameBytesAt } from '../output-files';
import { settle } from '../../outputs/naming';

/** A job's finished output, as its record says. */
export interface DoneOutput {
  type: string;
  path: string;
}

/** The dubbed media QC measures, the one the user is handed: the dubbed video (the service's or made here), else the other formats. */
const MEDIA_ORDER = ['translated_mp4', 'translated', 'translated_mp3'];

export const dubMedia = (outputs: readonly DoneOutput[]): string | null =>
  MEDIA_ORDER.map((t) => outputs.find((o) => o.type === t)?.path).find((p) => p !== undefined) ?? null;

/** The dub's subtitles as the service sent them (WebVTT): what QC reads and SRT is made from. */
export const dubWebVtt = (outputs: readonly DoneOutput[]): string | null => {
  const sub = outputs.find((o) => o.type === 'translated_subtitle');
  return sub && extname(sub.path).toLowerCase() === '.vtt' ? sub.path : null;
};

export interface MadeFile {
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * `Movie.es.srt` beside `Movie.es.vtt`: converted, written to a `.part`, moved into place without replacing
 * anything (a name taken by someone else's file gets the next free one). `takeSame`: the very same bytes
 * already under that name and nobody's record (another data folder's dub of the same file, a queue restored
 * from an older backup) are taken where they are, as the dubbed video is, never kept twice as `(2)`.
 */
export async function writeSrtBeside(vtt: string, takeSame = false): Promise<MadeFile> {
  // The converter (and the WebVTT parser) loads when a job has subtitles to convert.
  const { webVttToSrt } = await import('../../media/subtitles/srt');
  const srt = webVttToSrt(await readFile(vtt, 'utf8'), vtt);
  const wanted = srtBeside(vtt);
  const made = { bytes: Buffer.byteLength(srt), sha256: createHash('sha256').update(srt).digest('hex') };
  if (takeSame && (await sameBytesAt(wanted, made.bytes, made.sha256))) return { path: wanted, ...made };
  const part = `${wanted}.part`;
  await writeFile(part, srt);
  try {
    const path = await settle(part, wanted);
    return { path, bytes: (await stat(path)).size, sha256: made.sha256 };
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}

export interface JobDeliverables {
  qc: Qc;
  /** The SubRip file made, when `srt` was asked for and the dub has WebVTT subtitles. */
  srt: MadeFile | null;
  /** SubRip alone was asked for: the WebVTT it was made from, to be removed with its record. */
  dropVtt: string | null;
}

/**
 * What a finished dub gets on this machine: QC of the file the user is handed, and the SubRip twin of its
 * subtitles when asked for. Nothing is sent anywhere; nothing of the dub's is moved or deleted.
 */
export async function deliverJob(
  tools: MediaTools,
  job: {
    id: number;
    outputs: readonly DoneOutput[];
    /**
     * The dub's video was made here (sending the sound alone) from this dubbed sound (null: since gone):
     * QC measures the video, and reads the dub's own length from the sound.
     */
    madeFrom?: MadeFrom | undefined;
    subtitles: SubtitleFormats;
    loudness: LoudnessTarget;
    /** No other job records a file under the SubRip file's plain name: the same bytes there may be taken. */
    srtNameFree?: boolean;
  },
  source: SourceFacts,
  signal?: AbortSignal,
): Promise<JobDeliverables> {
  const vtt = dubWebVtt(job.outputs);
  const subtitles = vtt ?? job.outputs.find((o) => o.type === 'translated_subtitle')?.path ?? null;
  const media = dubMedia(job.outputs);
  const files = { media, subtitles, jobId: job.id, ...(job.madeFrom ? { madeFrom: job.madeFrom } : {}) };
  const qc = await checkDub(tools, files, source, job.loudness, signal);
  const hasSrt = job.outputs.some((o) => o.type === 'translated_subtitle_srt');
  let srt: MadeFile | null = null;
  if (job.subtitles.includes('srt') && vtt && !hasSrt)
    // Subtitles that do not read as WebVTT give no SubRip: QC says what is wrong with them.
    srt = await writeSrtBeside(vtt, job.srtNameFree ?? false).catch((e: unknown) => {
      if (e instanceof SubtitleConversionError) return null;
      throw e;
    });
  const dropVtt = vtt && (srt || hasSrt) && !job.subtitles.includes('vtt') ? vtt : null;
  return { qc, srt, dropVtt };
}

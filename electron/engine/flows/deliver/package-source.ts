import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DefaultAudio } from '../../../../shared/contract/deliver';
import { isDiskFull } from '../../files/disk-space';
import { makeFolder } from '../../files/make-folder';
import { notThroughForeignLink } from '../../files/own-file';
import {
  PackageRefusedError,
  packageExtension,
  writePackage,
  type PackagedDub,
} from '../../media/ffmpeg/package';
import type { MediaTools } from '../../../media-tools/locate';
import { probeStreams } from '../../media/ffmpeg/streams';
import { noSuchTrack, withTrack } from '../../media/ffmpeg/track';
import type { AudioTrack } from '../../../../shared/contract/audio-track';
import { packageName } from '../../outputs/deliver-names';
import { freeVariant, settle, withVariant } from '../../outputs/naming';
import { PREVIOUS_FOLDER } from '../previous-version';
import { dubMedia, dubWebVtt, type DoneOutput, type MadeFile } from './job-deliverables';
import { PackageRoomError, packageBytes } from './package-room';

export { PackageRefusedError, PackageRoomError };

/** Where packages convert their subtitles: the staging area's own folder, emptied when a run starts. */
export const packageStaging = (stagingDir: string) => join(stagingDir, 'package');

/** One finished language of a source, as its records say. */
export interface PackagedJob {
  lang: string;
  outputs: readonly DoneOutput[];
}

export interface PackageRequest {
  source: string;
  sourceLang: string;
  outDir: string;
  naming: 'suffix' | 'folders';
  /** The name results take (the source's name without its extension). */
  stem: string;
  format: 'mkv' | 'mp4';
  defaultAudio: DefaultAudio;
  /** The source's audio track the dubs were made from: the package's original, first (`first`: the first). */
  audioTrack: AudioTrack;
  /**
   * The data folder's staging area: the subtitles converted for the package are written in a folder of
   * their own inside it (on the data folder's disk, not the system's temp), removed when done; a run's start
   * removes what a killed one left (`sweepStagedMedia`).
   */
  stagingDir: string;
  jobs: readonly PackagedJob[];
  /** The package made before (its languages changed since): moved to `previous/` first. */
  previous: string | null;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** An earlier package into `previous/` beside it, numbered, never over another file. Returns where it went. */
export async function movePackageAside(path: string): Promise<string | null> {
  if (!(await stat(path).catch(() => null))?.isFile()) return null;
  const folder = join(dirname(path), PREVIOUS_FOLDER);
  await makeFolder(folder);
  await notThroughForeignLink(folder);
  const aside = join(folder, basename(path));
  const moved = join(folder, withVariant(basename(path), await freeVariant([aside], () => false)));
  await rename(path, moved);
  return moved;
}

/**
 * A language's subtitles as the package takes them (SubRip, which ffmpeg turns into mov_text for an MP4):
 * converted from its WebVTT into `temp`, or its SubRip result as it is when SubRip alone was kept. Null
 * when it has none.
 */
async function packagedSubtitles(job: PackagedJob, temp: string): Promise<string | null> {
  const vtt = dubWebVtt(job.outputs);
  if (!vtt) return job.outputs.find((o) => o.type === 'translated_subtitle_srt')?.path ?? null;
  const srt = join(temp, `${job.lang}.srt`);
  const { webVttToSrt } = await import('../../media/subtitles/srt');
  await writeFile(srt, webVttToSrt(await readFile(vtt, 'utf8'), vtt));
  return srt;
}

/**
 * The source's one file with every language, beside its other results: its picture as it is, its sound,
 * each dub's sound and subtitles (SubRip converted from the service's WebVTT). Written to a `.part` and
 * moved into place once whole; the package it replaces goes to `previous/` first. No service call.
 */
export async function makePackage(
  tools: MediaTools,
  req: PackageRequest,
  signal?: AbortSignal,
): Promise<MadeFile & { languages: string[]; movedAside: string | null }> {
  if (!(await stat(req.source).catch(() => null))?.isFile())
    throw new Error(
      `its source ${req.source} is not there (moved, renamed, or on a drive that is not plugged in): put it back, and the next run makes it (no charge)`,
    );
  const read = await probeStreams(tools.ffprobe, req.source, signal);
  const sourceStreams = withTrack(read, req.audioTrack);
  if (!sourceStreams)
    throw new PackageRefusedError(noSuchTrack(req.source, req.audioTrack, read.audios).message);
  const ext = packageExtension(req.format, sourceStreams.video !== null);
  const wanted = join(req.outDir, packageName(req.naming, req.stem, ext));
  await makeFolder(dirname(wanted));
  // The subtitles converted for the package: small, made again on any retry, never left among the results.
  await mkdir(packageStaging(req.stagingDir), { recursive: true });
  const temp = await mkdtemp(join(packageStaging(req.stagingDir), 'package-'));
  try {
    const dubs: PackagedDub[] = [];
    for (const j of req.jobs) {
      const media = dubMedia(j.outputs);
      if (!media) continue;
      dubs.push({ lang: j.lang, media, srt: await packagedSubtitles(j, temp) });
    }
    if (dubs.length === 0) throw new PackageRefusedError(`no dubbed sound of ${req.source} to package`);
    const part = `${wanted}.part`;
    await writePackage(
      tools,
      {
        source: req.source,
        sourceStreams,
        sourceLang: req.sourceLang,
        dubs,
        container: req.format,
        defaultAudio: req.defaultAudio,
        part,
      },
      signal,
    ).catch(async (e: unknown) => {
      // Its disk is full: how much it takes, so that the room asked for is enough once freed.
      if (!isDiskFull(e, req.outDir) || signal?.aborted) throw e;
      throw new PackageRoomError(await packageBytes(tools, req.source, dubs, signal), e);
    });
    const movedAside = req.previous ? await movePackageAside(req.previous) : null;
    const path = await settle(part, wanted);
    const bytes = (await stat(path)).size;
    return { path, bytes, sha256: await sha256(path), languages: dubs.map((d) => d.lang), movedAside };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DubV2 } from '../../../../shared/api/v2';
import { DubdeskError } from '../../../../shared/contract/errors';
import { freeBytes } from '../../files/disk-space';
import { ApiError } from '../../api/errors';
import { InputError } from '../../media/probe';
import { mediaTools } from '../../../media-tools/locate';
import { describeFit, rebuildVideo, rebuiltContainer } from '../../media/ffmpeg/rebuild';
import { probeStreams } from '../../media/ffmpeg/streams';
import { withTrack } from '../../media/ffmpeg/track';
import { SourceProbes } from './source-probes';
import { partWriters } from './stage';
import type { LeasedJob, StepContext } from '../context';
import { local, outputByteCap, sameBytesAt, sha256 } from '../output-files';
import { sniffedPart } from '../sniffed-part';
import type { Downloaded } from '../../api/download';

/** The languages of one file rebuild from one look at its streams. */
const sourceProbes = new SourceProbes();

/** Fresh links after an expired one, at most this many times. */
const MAX_LINK_REFRESHES = 3;

/** Where the rebuilt video goes, as fetch-outputs claimed it for the job (see `claimOwnNames` there). */
export interface RebuildSlot {
  /** The name claimed for the dubbed video (an .mp4). */
  claimed: () => Promise<string>;
  /** A free name of the job's with another extension (a picture MP4 cannot hold goes into an .mkv), recorded. */
  renamed: (ext: 'mkv') => Promise<string>;
  /** The video's name without a `(2)`: where a result made before a restore may be already. */
  plain: (ext: 'mp4' | 'mkv') => string;
  /** The dubbed sound when it is one of the job's results (ticked), else null: fetched into staging. */
  dubbedResult: string | null;
  /** Records the finished video as the job's `translated_mp4`. */
  done: (path: string, bytes: number) => void;
}

const isFile = (p: string | null) =>
  p
    ? stat(p).then(
        (s) => s.isFile(),
        () => false,
      )
    : Promise.resolve(false);

/** The dubbed sound for a video the user did not ask the sound of: into staging, resumable, recorded when whole. */
async function fetchDubbedToStaging(ctx: StepContext, job: LeasedJob, dub: DubV2, signal: AbortSignal) {
  const r = job.row;
  if (r.dubbed_audio && (await isFile(r.dubbed_audio))) return r.dubbed_audio;
  const path = join(ctx.stagingDir, 'dubbed', `job-${r.id}.audio`);
  await mkdir(dirname(path), { recursive: true }).catch((e: unknown) => {
    throw local(e, dirname(path), null);
  });
  let link = dub.outputs.translated_mp3;
  let fetched: Downloaded;
  for (let refresh = 0; ; refresh++) {
    if (!link) throw new ApiError('protocol', 'the service no longer offers translated_mp3');
    try {
      fetched = await ctx.clients.downloads.toPart(link.download_url, `${path}.part`, {
        signal,
        onProgress: (t, n) => ctx.progress(r.id, t, n),
        maxBytes: outputByteCap(r, dub.measured_duration),
      });
      break;
    } catch (e) {
      if (!(e instanceof ApiError && e.kind === 'forbidden') || refresh >= MAX_LINK_REFRESHES)
        throw local(e, dirname(path), null);
      link = (await ctx.clients.v2.get(dub.id, ctx.signal)).outputs.translated_mp3; // expired: fresh links
    }
  }
  // Only sound reaches ffmpeg: a page, an archive or a picture in its place is the service's mistake, said.
  await sniffedPart('translated_mp3', `${path}.part`, fetched, link.download_url);
  await rename(`${path}.part`, path);
  job.record({ dubbed_audio: path });
  return path;
}

/**
 * The source as it was dubbed: its picture goes into the result, so a file whose bytes changed is not used.
 * A file is its content: touched, or deleted and copied back, it is the same file (hashed only when its size
 * and time are not the ones recorded; the new time is then recorded, so it is hashed once).
 */
async function assertSourceUnchanged(ctx: StepContext, job: LeasedJob): Promise<void> {
  const r = job.row;
  const now = await stat(r.source).catch(() => null);
  if (!now?.isFile())
    throw new InputError(
      r.source,
      'not-found',
      `${r.source}: the source is gone, and its picture makes the dubbed video`,
      'Put it back, then retry the job (nothing is charged again).',
    );
  if (now.size === r.source_bytes && Math.round(now.mtimeMs) === Math.round(r.source_mtime ?? -1)) return;
  const same =
    now.size === r.source_bytes &&
    r.source_hash !== null &&
    (await ctx.store.hashes.of(r.source, now.size, now.mtimeMs)) === r.source_hash;
  if (!same)
    throw new DubdeskError(
      'conflict',
      `${r.source} changed since it was dubbed: its picture no longer matches the dubbed sound`,
      { remedy: 'Put the version that was dubbed back and retry, or dub the new version (--again).' },
    );
  job.record({ source_mtime: now.mtimeMs });
}

/**
 * The video just made, or the very same bytes already under its plain name and nobody's record (made there
 * before the queue database was restored from an older backup): taken where it is, never kept twice as `(2)`.
 */
async function atPlainNameIfThere(ctx: StepContext, job: LeasedJob, slot: RebuildSlot, out: string) {
  const plain = slot.plain(out.endsWith('.mkv') ? 'mkv' : 'mp4');
  if (plain === out || ctx.store.outputs.claimedByAnother(plain, job.row.id)) return out;
  const bytes = (await stat(out)).size;
  if (!(await sameBytesAt(plain, bytes, await sha256(out)))) return out;
  await rm(out, { force: true });
  return plain;
}

/**
 * The audio path's last step: the dubbed video made here, the source's picture copied bit for bit under
 * the dubbed sound, written to a `.part` and renamed when whole. Done again after a crash (the fetched
 * sound is kept until then): nothing is fetched or paid twice.
 */
export async function rebuildStep(
  ctx: StepContext,
  job: LeasedJob,
  dub: DubV2,
  slot: RebuildSlot,
  transferSignal: AbortSignal,
): Promise<void> {
  const r = job.row;
  const { tools } = await mediaTools();
  if (!tools)
    throw new DubdeskError('config', 'no ffmpeg found to make the dubbed video from the dubbed sound', {
      remedy:
        'Install ffmpeg (with ffprobe) or set DUBDESK_FFMPEG, then retry the job (nothing is charged again).',
    });
  // The download stops at the first Ctrl+C and resumes; ffmpeg's few seconds finish unless the job stops.
  // Fetched before the source is checked: the paid sound is here, whatever the service keeps, for a retry.
  const dubbed = slot.dubbedResult ?? (await fetchDubbedToStaging(ctx, job, dub, transferSignal));
  await assertSourceUnchanged(ctx, job);
  const signal = ctx.signal;
  job.checkpoint();
  const [sourceRead, dubbedStreams] = await Promise.all([
    sourceProbes.of(tools.ffprobe, r, signal),
    probeStreams(tools.ffprobe, dubbed, signal, 'service'),
  ]);
  // The picture's length falls back to the sound's: the track that was dubbed.
  const sourceStreams = withTrack(sourceRead, r.audio_track) ?? sourceRead;
  const out = rebuiltContainer(sourceStreams) === 'mp4' ? await slot.claimed() : await slot.renamed('mkv');
  const fit = await rebuildVideo(
    tools,
    {
      source: r.source,
      sourceStreams,
      dubbedAudio: dubbed,
      dubbedSeconds: dubbedStreams.durationSeconds ?? dubbedStreams.audio?.durationSeconds ?? 0,
      dubbedChannels: dubbedStreams.audio?.channels ?? null,
      destLang: r.dest_lang,
      out,
    },
    signal,
    partWriters(ctx.stagingDir),
  ).catch((e: unknown) => {
    // A full disk: the room to free is what the video made here weighs (at most the source) less what is free.
    const free = freeBytes(dirname(out)) ?? 0;
    throw local(e, dirname(out), Math.max(0, (r.source_bytes ?? 0) - free));
  });
  const made = await atPlainNameIfThere(ctx, job, slot, out);
  slot.done(made, (await stat(made)).size);
  await ctx.store.results.recordResult(made);
  // The history names the file the job keeps: the one made, or the same bytes found under the plain name.
  const where =
    made === out ? `made ${made} here` : `made ${made} here (the same bytes were already there: kept)`;
  job.apply({ type: 'rebuilt', note: `${where}: the picture copied as it is; ${describeFit(fit)}` });
  // A dub whose QC is to come keeps the sound as the service sent it: QC measures the video made here and
  // reads the dub's own length from that sound (the video is the picture's length whatever the dub's),
  // then removes it (`runner/deliveries.ts`).
  if (!slot.dubbedResult && r.deliver === null) await rm(dubbed, { force: true });
}

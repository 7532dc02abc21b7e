import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes } from '../../../../shared/format';
import { DubdeskError } from '../../../../shared/contract/errors';
import { UPLOAD_LIMIT } from '../../api/limits';
import type { SourceIdentity } from '../../api/file-body';
import { audioPlan } from '../../media/ffmpeg/audio-plan';
import { extractAudio, type Extracted } from '../../media/ffmpeg/extract';
import { mediaTools, NO_FFMPEG } from '../../../media-tools/locate';
import { MediaToolError } from '../../../media-tools/run';
import { ToolHostGoneError } from '../../../media-tools/tool-host';
import { PartWriters } from '../../../media-tools/part-writers';
import { probeFile } from '../../media/probe';
import { probeStreams, soundSeconds, type MediaStreams } from '../../media/ffmpeg/streams';
import { noSuchTrack, withTrack } from '../../media/ffmpeg/track';
import { describeTrack } from '../../../../shared/contract/audio-track';
import type { JobRow, JobStore } from '../../db/jobs';
import { KeyLock } from '../../outputs/key-lock';
import type { LeasedJob, StepContext } from '../context';

/** What an upload sends: a file, its declared type, and what it must still be when its last bytes leave. */
export interface Sending {
  path: string;
  type: string;
  expect: SourceIdentity | undefined;
}

/** The languages of one file share its extraction: one at a time makes it, the others find it made. */
const extracting = new KeyLock();

export const audioStaging = (ctx: StepContext) => join(ctx.stagingDir, 'audio');

/** The record of the ffmpegs writing parts for the audio path (`sweepStagedMedia` stops a dead run's). */
export const partWriters = (stagingDir: string) => new PartWriters(join(stagingDir, 'writers'));

async function fileThere(path: string | null): Promise<SourceIdentity | null> {
  if (!path) return null;
  const s = await stat(path).catch(() => null);
  return s?.isFile() ? { size: s.size, mtimeMs: s.mtimeMs, hash: null } : null;
}

/**
 * The audio path given up for this job: why goes into its history, the whole file is sent, and billed as
 * the whole file (its length, read as the estimate reads it, may be more than its sound's).
 */
async function sendWhole(job: LeasedJob, why: string): Promise<null> {
  const whole = await probeFile(job.row.source).catch(() => null);
  job.apply({ type: 'send-whole', why, seconds: whole?.durationSeconds ?? null });
  return null;
}

/** The sound plays no longer than it does, nor than the estimate billed for it (the job's length). */
function capOf(sound: number | null, estimated: number | null): number | null {
  const known = [sound, estimated].filter((n): n is number => n !== null);
  return known.length ? Math.min(...known) : null;
}

async function extractOnce(ctx: StepContext, job: LeasedJob): Promise<Extracted | null> {
  const r = job.row;
  // A track other than the first cannot be sent as the whole file: the service would dub the first.
  const giveUp = r.audio_track === 'first' ? (why: string) => sendWhole(job, why) : trackLost(r);
  const { tools } = await mediaTools();
  if (!tools) return giveUp(NO_FFMPEG.replace(/: the whole file is sent$/, ''));
  const read = await probeStreams(tools.ffprobe, r.source, ctx.signal).catch((e: unknown) => {
    if ((e instanceof MediaToolError && e.why === 'stopped') || e instanceof ToolHostGoneError) throw e;
    return null;
  });
  if (!read) return giveUp('ffprobe could not read its streams');
  const streams = withTrack(read, r.audio_track);
  if (!streams) throw noSuchTrackOf(r, read.audios);
  if (!streams.video) return giveUp('it has no picture to keep');
  if (!streams.audio) return sendWhole(job, 'it has no sound to dub');
  const plan = audioPlan(streams.audio, r.api);
  // By content and track: every language of the file (and a copy of it under another name) shares one
  // extraction of the track.
  const track = r.audio_track === 'first' ? '' : `-track${r.audio_track}`;
  const dest = join(
    audioStaging(ctx),
    `${r.source_hash ?? `job-${r.id}`}${track}-${r.api === 'legacy' ? 'mp4' : 'sound'}`,
  );
  await mkdir(audioStaging(ctx), { recursive: true });
  try {
    return await extracting.run(dest, async () => {
      const made = `${dest}.${plan.ext}`;
      const there = await fileThere(made);
      if (there) return { path: made, bytes: there.size, plan };
      return extractAudio(
        tools,
        r.source,
        streams,
        r.api,
        dest,
        capOf(soundSeconds(streams), r.duration),
        ctx.signal,
        partWriters(ctx.stagingDir),
      );
    });
  } catch (e) {
    if (!(e instanceof MediaToolError) || e.why === 'stopped') throw e;
    return giveUp(`ffmpeg could not take its sound (${e.message})`);
  }
}

/** The file no longer has the track its job dubs (it was added with it): said before anything is sent. */
function noSuchTrackOf(r: JobRow, audios: MediaStreams['audios']): DubdeskError {
  const { message, remedy } = noSuchTrack(r.source, r.audio_track, audios);
  return new DubdeskError('not-media', `${message} (nothing was sent or charged)`, { remedy });
}

/**
 * A job dubbing a track other than the first whose sound alone cannot be sent fails, saying why, before
 * anything is sent: the whole file would have the service dub (and charge for) its first track.
 */
function trackLost(r: JobRow) {
  return (why: string): never => {
    throw new DubdeskError(
      'not-media',
      `${r.source}: ${describeTrack(r.audio_track)} can only be sent alone, and ${why} (nothing was sent or charged)`,
      {
        remedy:
          'Fix that (install ffmpeg, check the file plays), then retry; or dub its first track instead.',
      },
    );
  };
}

/**
 * What a file job uploads: the whole source, or on the audio path its sound alone, extracted once into the
 * data folder's staging area (again after a crash: a `.part` never counts). The source was checked just
 * before (`sourceBeforeUpload`): its content is the job's identity, whatever is sent.
 */
export async function whatToSend(ctx: StepContext, job: LeasedJob, whole: Sending): Promise<Sending> {
  return withinLimit(job, await chosen(ctx, job, whole));
}

/**
 * What is sent, checked against its generation's upload limit before any byte leaves: the batch was checked
 * when added, but the audio path may have fallen back to the whole file since, or the file have grown.
 */
async function withinLimit(job: LeasedJob, sending: Sending): Promise<Sending> {
  const limit = UPLOAD_LIMIT[job.row.api];
  if (limit === null) return sending;
  const bytes = sending.expect?.size ?? (await fileThere(sending.path))?.size ?? 0;
  if (bytes <= limit) return sending;
  const sound = sending.path !== job.row.source;
  throw new DubdeskError(
    'too-large',
    `${sound ? 'its sound alone is' : 'the whole file is sent, and is'} ${formatBytes(bytes)}, over the ${formatBytes(limit)} upload limit of the ${job.row.api} API`,
    {
      remedy: sound
        ? 'Split it into shorter parts, then dub each part.'
        : 'Send only its sound (install ffmpeg if none is found), or split or compress it, then dub it again.',
    },
  );
}

async function chosen(ctx: StepContext, job: LeasedJob, whole: Sending): Promise<Sending> {
  const r = job.row;
  if (r.send !== 'audio' || r.source_kind !== 'file') return whole;
  const kept = await fileThere(r.staged_audio);
  if (kept && r.staged_audio && r.staged_type)
    return { path: r.staged_audio, type: r.staged_type, expect: kept };
  const made = await extractOnce(ctx, job);
  if (!made) return whole;
  job.record({ staged_audio: made.path, staged_type: made.plan.mime });
  const how = made.plan.copy ? 'its sound as it is' : 'its sound as AAC';
  job.apply({
    type: 'audio-staged',
    note: `sends ${how}: ${formatBytes(made.bytes)} instead of ${formatBytes(r.source_bytes ?? 0)}`,
  });
  return { path: made.path, type: made.plan.mime, expect: (await fileThere(made.path)) ?? undefined };
}

/** Once its dub is made, a job's extracted sound goes, unless another language of the file still needs it. */
export async function releaseStagedAudio(ctx: StepContext, job: LeasedJob): Promise<void> {
  const path = job.row.staged_audio;
  if (!path || ctx.store.stagedAudio.neededByAnother(path, job.row.id)) return;
  await rm(path, { force: true }).catch(() => {});
}

/**
 * Staged files no job needs any more (their jobs were canceled or failed before sending, or a crash came
 * between a dub's creation and the cleanup), parts a killed run left, and the subtitles a killed package
 * was converting: removed when a run starts, its ffmpegs still writing stopped first.
 */
export async function sweepStagedMedia(stagingDir: string, store: JobStore): Promise<void> {
  await partWriters(stagingDir).sweep();
  const inUse = store.stagedAudio.inUse();
  for (const sub of ['audio', 'dubbed']) {
    const dir = join(stagingDir, sub);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(dir, name);
      if (!inUse.has(path)) await rm(path, { force: true }).catch(() => {});
    }
  }
  // A package's converted subtitles: no package is being made before the run starts, so none is needed.
  await rm(join(stagingDir, 'package'), { recursive: true, force: true }).catch(() => {});
}

import type { BatchRequest } from '../../../../shared/contract/batches';
import { SendSchema, type ApiGeneration, type Send } from '../../../../shared/contract/jobs';
import { UPLOAD_LIMIT } from '../../api/limits';
import { mapInTurns } from '../../files/in-turns';
import { mediaTools, NO_FFMPEG, type ToolsSearch } from '../../../media-tools/locate';
import { probeStreams, type PlanStreams } from '../../media/ffmpeg/streams';
import { planStreamsInProcess } from '../../media/in-process/plan-streams';
import type { ProbedFile } from '../../media/probe';
import type { Source } from './expand-inputs';
import type { JobStore, NewJob } from '../../db/jobs';
import { bytesNotSent, takesPart, type BytesOf } from './upload-once';
import { eachInSlices, TimeSlices } from '../time-slices';
import { isFirstTrack, planChosenTrack } from './track-plan';
import { NO_SOUND, sendChoiceFor, whole, type SendChoice } from './send-choice';

export { NO_SOUND, sendChoiceFor, type SendChoice };
import { trackInfos } from '../../media/ffmpeg/track';

export interface SendPlan {
  /** By source path; links have none (the service fetches them itself). */
  bySource: Map<string, SendChoice>;
  /** Said once for the batch: no ffmpeg, so no file sends its sound alone. */
  notice: string | null;
  /** The streams of each video that could be read (what a package can hold is known before anything is paid). */
  streams: Map<string, PlanStreams>;
}

/**
 * What a batch or preset that does not say sends: the sound alone, unless DUBDESK_SEND says `file` where
 * the engine runs (a machine whose uplink is not the constraint, or the test suite's whole-file world).
 */
export function sendOf(asked: Send | undefined, env: NodeJS.ProcessEnv = process.env): Send {
  return asked ?? SendSchema.catch('audio').parse(env.DUBDESK_SEND?.trim().toLowerCase() || 'audio');
}

/** ffprobe reads a few files at once: each is a short process, and two cores are shared with the queue. */
const PROBES_AT_ONCE = 4;
/** The reads in this process are a few file operations each, as probing's (probeMany): many at once. */
const READS_AT_ONCE = 32;

/**
 * Each video's streams, given to `take` as they come: read in this process where its container allows
 * (MP4/MOV, Matroska/WebM: see media/in-process/), to the numbers ffprobe would give; by ffprobe for the
 * rest, a few at a time. Spawning ffprobe for each of 2,000 files took 20 s of an add that takes under one
 * without it. Streams probing already read are decided in time slices: awaited as if read, all 10,000
 * were decided in one turn of the event loop (a resolved promise does not give the loop its turn).
 */
async function streamsOfVideos(
  videos: readonly ProbedFile[],
  ffprobe: string,
  slices: TimeSlices,
  take: (f: ProbedFile, streams: PlanStreams | null) => void,
): Promise<void> {
  const left: ProbedFile[] = [];
  const unread: ProbedFile[] = [];
  // Probing read an MP4's while the file was open; a Matroska is opened again here.
  await eachInSlices(videos, slices, (f) => {
    if (f.streams === undefined) unread.push(f);
    else if (f.streams) take(f, f.streams);
    else left.push(f);
  });
  await mapInTurns(unread, READS_AT_ONCE, async (f) => {
    const streams = await planStreamsInProcess(f.path, f.mime);
    if (streams) take(f, streams);
    else left.push(f);
  });
  await mapInTurns(left, PROBES_AT_ONCE, async (f) => {
    take(f, await probeStreams(ffprobe, f.path).catch(() => null));
  });
}

/**
 * Decides, per file, what goes to the service: a video's sound alone whenever ffmpeg is found and the file
 * has both a picture and a sound (the estimate shows what it will weigh), else the whole file. A video
 * with no sound is marked NO_SOUND whichever is sent: the service would charge for a dub of silence.
 */
export async function planSends(
  sources: readonly Source[],
  req: Pick<BatchRequest, 'send' | 'api'> & Partial<Pick<BatchRequest, 'audioTrack'>>,
  search: Promise<ToolsSearch> = mediaTools(),
  slices = new TimeSlices(),
): Promise<SendPlan> {
  const files = sources.flatMap((s) => ('url' in s ? [] : [s]));
  const bySource = new Map<string, SendChoice>();
  const streamsOf = new Map<string, PlanStreams>();
  const send = sendOf(req.send);
  const track = req.audioTrack ?? 'first';
  await eachInSlices(files, slices, (f) => bySource.set(f.path, whole(f, null)));
  if (!isFirstTrack(track)) {
    await planChosenTrack(files, track, send, req.api, await search, (f, choice, streams) => {
      if (streams) streamsOf.set(f.path, streams);
      bySource.set(f.path, choice);
    });
    return { bySource, notice: null, streams: streamsOf };
  }
  const videos = files.filter((f) => f.kind === 'video');
  if (videos.length === 0) return { bySource, notice: null, streams: streamsOf };
  const { tools } = await search;
  if (!tools) {
    if (send === 'file') return { bySource, notice: null, streams: streamsOf };
    await eachInSlices(videos, slices, (f) => bySource.set(f.path, whole(f, NO_FFMPEG)));
    return { bySource, notice: NO_FFMPEG, streams: streamsOf };
  }
  await streamsOfVideos(videos, tools.ffprobe, slices, (f, streams) => {
    if (streams) streamsOf.set(f.path, streams);
    const choice = sendChoiceFor(f, streams, send, req.api);
    // A file of several sound tracks is read by ffprobe, which lists them to choose from.
    const several = streams?.audios && streams.audios.length > 1 ? trackInfos(streams.audios) : null;
    bySource.set(f.path, several ? { ...choice, tracks: several } : choice);
  });
  return { bySource, notice: null, streams: streamsOf };
}

/**
 * What the jobs to be sent put on the wire together, upload once counted: `bytes` as planned (the sound alone
 * where it applies), `wholeBytes` as the whole-file path would send them (with upload once where it would
 * take part), so "instead of" compares the two paths as each would really run.
 */
export function sendTotals(
  store: JobStore,
  jobs: readonly NewJob[],
  plan: SendPlan,
  req: Pick<BatchRequest, 'uploadOnce' | 'api' | 'to'>,
): {
  bytes: number;
  wholeBytes: number;
  audioFiles: number;
  wholeOverLimit: number;
  api: ApiGeneration;
  notice: string | null;
} {
  // Links are fetched by the service; a copy's results are linked here: neither sends anything.
  const sending = jobs.filter((j) => j.source_kind === 'file' && !j.reuse_results);
  const whole: BytesOf = (j) => j.source_bytes ?? 0;
  const sent: BytesOf = (j) => plan.bySource.get(j.source)?.bytes ?? whole(j);
  const sum = (bytesOf: BytesOf) => sending.reduce((n, j) => n + bytesOf(j), 0);
  const wholeTakesPart = (j: NewJob) => takesPart(req.uploadOnce, req.api, whole(j), req.to.length);
  const audio = new Set(
    sending.filter((j) => plan.bySource.get(j.source)?.what === 'audio').map((j) => j.source),
  );
  const limit = UPLOAD_LIMIT[req.api];
  const wholeOverLimit = new Set(
    sending.filter((j) => audio.has(j.source) && limit !== null && whole(j) > limit).map((j) => j.source),
  );
  return {
    bytes: sum(sent) - bytesNotSent(store, sending, sent).bytes,
    wholeBytes: sum(whole) - bytesNotSent(store, sending, whole, wholeTakesPart).bytes,
    audioFiles: audio.size,
    wholeOverLimit: wholeOverLimit.size,
    api: req.api,
    notice: plan.notice,
  };
}

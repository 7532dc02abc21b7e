import type { BatchRequest, FileEstimate } from '../../../../shared/contract/batches';
import type { ContractError } from '../../../../shared/contract/errors';
import type { NewJob } from '../../db/jobs';
import type { ProbeOptions } from '../../media/probe';
import { absolutePath } from '../paths';
import { expandInputs, type OwnOutputs } from './expand-inputs';
import { fanOut } from './fan-out';
import { InputError } from '../../media/probe';
import { mp4Refusal } from '../../media/ffmpeg/package';
import { NO_SOUND, planSends, type SendChoice, type SendPlan } from './send-plan';
import { creditsFor } from '../../../../shared/credits';
import { overUploadLimit } from './upload-limit';
import type { Source } from './expand-inputs';
import { eachInSlices, lookInChunks, TimeSlices } from '../time-slices';
import { describeTrack, type AudioTrack } from '../../../../shared/contract/audio-track';
import { isFirstTrack } from './track-plan';

export interface Planned {
  files: FileEstimate[];
  jobs: NewJob[];
  refused: { input: string; error: ContractError }[];
  /** What each file sends: its sound alone or the whole file. */
  sends: SendPlan;
}

/** Sources made into jobs at a time (100 files are 500 jobs of 5 languages): a slice ends between chunks. */
const FAN_OUT_CHUNK = 100;

/** Probes every input (a few at a time) and makes one job per good source and target language. */
export async function planBatch(
  req: BatchRequest,
  opts: {
    service: string;
    /** Where relative paths start: the CLI's working folder; null for a face that has none. */
    cwd: string | null;
    watchFolderId?: number | null;
    ownOutputs?: OwnOutputs;
    /** Real media whose length cannot be read: refused (the default), or planned with an unknown length. */
    lengthUnknown?: ProbeOptions['lengthUnknown'];
    /** The batch's time slices, shared by its steps (each slice counts what the step before ran). */
    slices?: TimeSlices;
  },
): Promise<Planned> {
  const slices = opts.slices ?? new TimeSlices();
  const { files, sources, refused } = await expandInputs(
    req,
    opts.cwd,
    opts.ownOutputs,
    { lengthUnknown: opts.lengthUnknown ?? 'refuse', hashWhole: true, streams: true },
    slices,
  );
  const outDir = req.outDir ? absolutePath(req.outDir, opts.cwd, 'outDir') : null;
  const sends = await planSends(sources, req, undefined, slices);
  // A chunk of sources at a time, the event loop's turn between once a slice ran its time: the 100,000
  // jobs of 20,000 files, made in one go, held it for 150 ms.
  const jobs = await lookInChunks(
    sources,
    slices,
    (chunk) => {
      const dubbable = chunk
        .map((s) => billedAs(s, sends))
        .filter((s) => isDubbable(s, sends, req, files, refused));
      return fanOut(dubbable, req, {
        service: opts.service,
        outDir,
        cwd: opts.cwd,
        sends: sends.bySource,
        ...(opts.watchFolderId !== undefined ? { watchFolderId: opts.watchFolderId } : {}),
      });
    },
    FAN_OUT_CHUNK,
  );
  const withSends: FileEstimate[] = [];
  await eachInSlices(files, slices, (f) =>
    withSends.push(f.problem ? f : estimateAs(f, sends.bySource.get(f.input), req)),
  );
  return { files: withSends, jobs, refused, sends };
}

/**
 * A file as the service will bill it: on the audio path, the length of the sound sent, which may be less
 * than the file says (chapters or a picture running past the sound). The queue, the estimate and "Dub
 * again" all read this length.
 */
function billedAs(source: Source, sends: SendPlan): Source {
  if ('url' in source) return source;
  const choice = sends.bySource.get(source.path);
  if (choice?.what !== 'audio' || choice.seconds === null) return source;
  return { ...source, durationSeconds: choice.seconds };
}

/** Whether a source is to be dubbed; refused (in `files` and `refused`) when not, saying why. */
function isDubbable(
  s: Source,
  sends: SendPlan,
  req: BatchRequest,
  files: FileEstimate[],
  refused: Planned['refused'],
): boolean {
  if ('url' in s) {
    if (isFirstTrack(req.audioTrack)) return true;
    refuse(linkTrack(s.url, req.audioTrack), files, refused);
    return false;
  }
  const choice = sends.bySource.get(s.path);
  if (choice?.refused) {
    refuse(
      new InputError(s.path, 'bad-request', choice.refused.message, choice.refused.remedy),
      files,
      refused,
    );
    return false;
  }
  if (choice?.why === NO_SOUND) {
    refuse(silent(s.path), files, refused);
    return false;
  }
  // What is sent, not the source, meets the generation's upload limit: the sound alone on the audio path.
  const tooLarge = overUploadLimit(s, choice, req.api);
  if (tooLarge) {
    refuse(tooLarge, files, refused);
    return false;
  }
  const streams = sends.streams.get(s.path);
  const unpackable = req.package === 'mp4' && streams ? mp4Refusal(streams) : null;
  if (unpackable === null) return true;
  refuse(notMp4(s.path, unpackable), files, refused);
  return false;
}

function estimateAs(f: FileEstimate, choice: SendChoice | undefined, req: BatchRequest): FileEstimate {
  if (!choice) return { ...f, sends: null };
  const sends = { what: choice.what, bytes: choice.bytes, why: choice.why };
  const tracks = choice.tracks ? { audioTracks: choice.tracks } : {};
  if (choice.what !== 'audio' || choice.seconds === null) return { ...f, ...tracks, sends };
  const perLanguage = creditsFor(choice.seconds, req.studio);
  return {
    ...f,
    ...tracks,
    durationSeconds: choice.seconds,
    creditsPerLanguage: perLanguage,
    credits: perLanguage * req.to.length,
    sends,
  };
}
/** A video with no sound track is refused before anything is sent: its dub would be charged for silence. */
const silent = (path: string) =>
  new InputError(
    path,
    'bad-request',
    `${path} has no sound to dub: the service would charge for a dub with no voice in it.`,
    'Add the version of the video that has its sound track.',
  );

/** A link is fetched by the service itself, which dubs its first audio track: no other can be chosen. */
const linkTrack = (url: string, track: AudioTrack) =>
  new InputError(
    url,
    'bad-request',
    `${url}: the service fetches a link itself and dubs its first audio track, so ${describeTrack(track)} cannot be chosen for it`,
    'Download the file first and add the file (Dubdesk then sends the track chosen alone), or dub its first track.',
  );

/** An MP4 package of a picture an MP4 cannot hold is refused before the dub is paid, not after. */
const notMp4 = (path: string, why: string) =>
  new InputError(
    path,
    'bad-request',
    `${path} cannot be packaged as MP4: ${why}.`,
    'Package it as MKV instead (--package mkv, or MKV in the Package choice), or with no package.',
  );

function refuse(e: InputError, files: FileEstimate[], refused: Planned['refused']): void {
  const path = e.source;
  const error = e.toJSON();
  refused.push({ input: path, error });
  const at = files.findIndex((f) => f.input === path);
  const file = files[at];
  if (file) files[at] = { ...file, creditsPerLanguage: null, credits: null, problem: error };
}

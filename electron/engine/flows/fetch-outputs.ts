import { ExternalStatus, OUTPUT_TYPES, type OutputType } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { OutputSelectionSchema, type OutputSelection } from '../../../shared/contract/jobs';
import { serviceValueText } from '../../../shared/text';
import { ApiError } from '../api/errors';
import { makeFolder } from '../files/make-folder';
import type { LeasedJob, StepContext } from './context';
import { audioPathOutputs } from './audio/outputs';
import { OutputFetch, type CompletedDub } from './output-fetch';
import { local } from './output-files';
import { movePreviousVersions } from './previous-version';

export function parseSelection(raw: string): OutputSelection {
  try {
    const parsed = OutputSelectionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : 'default';
  } catch {
    return 'default';
  }
}

/** What to download: by default the dubbed media that fits the source, and the subtitles. */
export function chooseOutputs(
  selection: OutputSelection,
  dub: DubV2,
  sourceType: string | null,
): OutputType[] {
  const offered = (t: OutputType) => t in dub.outputs;
  if (selection === 'all') return OUTPUT_TYPES.filter(offered);
  if (selection !== 'default') return selection.filter(offered);
  const isVideo = (sourceType ?? dub.type).startsWith('video/');
  const media: OutputType[] = isVideo
    ? ['translated_mp4', 'translated', 'translated_mp3']
    : ['translated_mp3', 'translated'];
  const picked = media.find(offered);
  return [
    ...(picked ? [picked] : []),
    ...(offered('translated_subtitle') ? (['translated_subtitle'] as OutputType[]) : []),
  ];
}

/**
 * A dub the service made in another language than the job's is not this job's result: saved as
 * `clip.es.mp4` it would be wrong in a way nobody notices. Refused before anything is written.
 */
export function assertLanguage(made: string, asked: string, remoteId: string): void {
  if (made.toLowerCase() === asked.toLowerCase()) return;
  throw new DubdeskError(
    'service',
    `the service made dub ${serviceValueText(remoteId)} in ${serviceValueText(made)}, not ${asked} as asked; Dubdesk did not save it`,
    { remedy: 'Tell the service; retrying fetches the same dub, so cancel the job and dub it again.' },
  );
}

/** Completed -> files on disk: each output to `.part`, length-checked, then moved to a name nobody has. */
export async function fetchOutputs(ctx: StepContext, job: LeasedJob): Promise<void> {
  const completed = await completedDub(ctx, job);
  if (!completed) return;
  const { dub } = completed;
  const r = job.row;
  const selection = parseSelection(r.outputs_wanted);
  // The audio path: what the service made from the sound, and the dubbed video made here.
  const audioPath =
    r.send === 'audio'
      ? audioPathOutputs(selection, dub, (s, d) => chooseOutputs(s, d, r.source_type))
      : null;
  const wanted = audioPath?.wanted ?? chooseOutputs(selection, dub, r.source_type);
  if (wanted.length === 0)
    throw new DubdeskError(
      'service',
      `the service offered none of the requested outputs (it has: ${Object.keys(dub.outputs).join(', ') || 'nothing'})`,
      { remedy: 'Retry with other outputs, or dub it again.' },
    );
  await makeFolder(r.out_dir).catch((e: unknown) => {
    throw local(e, r.out_dir, null);
  });
  const existing = new Map(ctx.store.outputs.of(r.id).map((o) => [o.type, o]));
  // An earlier version's results go to `previous/` before any name is picked (never a `(2)` here).
  if (wanted.some((t) => !existing.has(t)))
    await movePreviousVersions(ctx.store, r).catch((e: unknown) => {
      throw local(e, r.out_dir, null);
    });
  const fetch = new OutputFetch(ctx, job, completed, wanted, existing);
  await fetch.all(audioPath?.download ?? wanted);
  if (audioPath?.rebuild && !existing.get('translated_mp4')?.done) await fetch.rebuild();
  fetch.finish();
}

/**
 * The job's dub, once the service says it completed in the language asked; null when the job's life moved
 * instead (the dub failed, vanished, or is not completed after all).
 */
async function completedDub(ctx: StepContext, job: LeasedJob): Promise<CompletedDub | null> {
  const remoteId = job.row.remote_id;
  if (!remoteId) throw new ApiError('protocol', 'completed job has no remote dub id');
  let dub: DubV2;
  try {
    dub = ctx.seen?.take(remoteId) ?? (await ctx.clients.v2.get(remoteId, ctx.signal));
  } catch (e) {
    if (!(e instanceof ApiError && e.kind === 'not-found')) throw e;
    job.apply({ type: 'remote-missing' });
    return null;
  }
  if (dub.external_status_id === ExternalStatus.Failed)
    job.apply({ type: 'remote-failed', message: describeRemoteError(dub.external_error_message) });
  else if (dub.external_status_id !== ExternalStatus.Completed) job.apply({ type: 'not-completed' });
  else {
    assertLanguage(dub.dest_lang, job.row.dest_lang, remoteId);
    return { remoteId, dub };
  }
  return null;
}

/** The service's failure message, as text a user can read (its shape is not specified). */
export function describeRemoteError(error: unknown): string {
  return serviceValueText(error) || 'the service reported that the dub failed';
}

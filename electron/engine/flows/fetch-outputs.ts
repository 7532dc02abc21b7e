import { mkdir, rename } from 'node:fs/promises';
import { extname, parse } from 'node:path';
import { OUTPUT_TYPES, type OutputLink, type OutputType } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { creditsFor } from '../../../shared/credits';
import { OutputSelectionSchema, type OutputSelection } from '../../../shared/domain';
import { ApiError } from '../api/errors';
import {
  alreadySettled,
  extensionFor,
  freeName,
  outputFileName,
  sanitizeName,
  settle,
} from '../outputs/naming';
import type { LeasedJob, StepContext } from './context';

/** Fresh links after an expired one: at most this many times per output and attempt. */
const MAX_LINK_REFRESHES = 3;

export function parseSelection(raw: string): OutputSelection {
  const parsed = OutputSelectionSchema.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : 'default';
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

/** Completed -> files on disk: each output to `.part`, length-checked, then moved to a name nobody has. */
export async function fetchOutputs(ctx: StepContext, job: LeasedJob): Promise<void> {
  const r = job.row;
  const remoteId = r.remote_id;
  if (!remoteId) throw new ApiError('protocol', 'completed job has no remote dub id');
  job.patch({ state: 'downloading', waiting: null });
  let dub: DubV2;
  try {
    dub = await ctx.clients.v2.get(remoteId, ctx.signal);
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'not-found') {
      // Gone from the service: a retry has to make it anew (the engine's retry knows this kind).
      job.patch({
        state: 'failed',
        error: 'the dub is no longer on the service (deleted?); retry to dub it again',
        error_kind: 'remote-missing',
      });
      return;
    }
    throw e;
  }
  if (dub.external_status_id !== 5) {
    job.patch({ step: 'track', state: 'processing' });
    return;
  }
  const wanted = chooseOutputs(parseSelection(r.outputs_wanted), dub, r.source_type);
  // Not worth retrying: the dub is what it is. Retry after changing the outputs, or dub again.
  if (wanted.length === 0)
    throw new ApiError(
      'http',
      `the service offered none of the requested outputs (it has: ${Object.keys(dub.outputs).join(', ') || 'nothing'})`,
    );
  await mkdir(r.out_dir, { recursive: true });
  const stem = r.source_kind === 'file' ? parse(r.source_name).name : sanitizeName(parse(dub.name).name);
  const existing = new Map(ctx.store.outputs(r.id).map((o) => [o.type, o]));
  const planned = new Set([...existing.values()].map((o) => o.path));

  for (const type of wanted) {
    const before = existing.get(type);
    if (before?.done) continue;
    if (before && before.bytes !== null && (await alreadySettled(before.path, before.bytes))) {
      ctx.store.putOutput({ ...before, done: 1 }); // a crash hit between moving the file and recording it
      continue;
    }
    let link: OutputLink | undefined = dub.outputs[type];
    let path = before?.path;
    if (!path) {
      path = await freeName(
        r.out_dir,
        outputFileName(stem, r.dest_lang, type, extensionFor(type, null, link?.download_url ?? null)),
        (p) => planned.has(p),
      );
      planned.add(path);
      ctx.store.putOutput({ job_id: r.id, type, path, bytes: null, done: 0 });
    }
    let result;
    for (let refresh = 0; ; refresh++) {
      if (!link) throw new ApiError('protocol', `the service no longer offers ${type}`);
      try {
        result = await ctx.clients.downloads.toPart(link.download_url, `${path}.part`, ctx.signal, (t, n) =>
          ctx.progress(r.id, t, n),
        );
        break;
      } catch (e) {
        if (!(e instanceof ApiError && e.kind === 'forbidden')) throw e;
        if (refresh >= MAX_LINK_REFRESHES) {
          // Fresh links refused again and again: the storage side is unwell; retry later with backoff.
          throw new ApiError(
            'server',
            `the service's links for ${type} keep being refused: ${e.message}`,
            e.status,
          );
        }
        dub = await ctx.clients.v2.get(remoteId, ctx.signal); // the link expired: fresh ones, then resume
        link = dub.outputs[type];
      }
    }
    const ext = extensionFor(type, result.contentType, link.download_url);
    if (extname(path).slice(1) !== ext) {
      // The response's type wins over the link's extension: record the new name first, then move the part.
      const renamed = await freeName(
        r.out_dir,
        outputFileName(stem, r.dest_lang, type, ext),
        (p) => planned.has(p) && p !== path,
      );
      ctx.store.putOutput({ job_id: r.id, type, path: renamed, bytes: null, done: 0 });
      await rename(`${path}.part`, `${renamed}.part`);
      path = renamed;
    }
    // Recorded before the move, so a crash during it is recognised on the next run.
    ctx.store.putOutput({ job_id: r.id, type, path, bytes: result.bytes, done: 0 });
    const final = await settle(`${path}.part`, path);
    ctx.store.putOutput({ job_id: r.id, type, path: final, bytes: result.bytes, done: 1 });
  }
  const measured = dub.measured_duration;
  job.patch({
    step: 'done',
    state: 'completed',
    progress: 100,
    waiting: null,
    error: null,
    measured_duration: measured,
    credits_charged: measured === null ? null : creditsFor(measured, r.studio === 1),
    completed_at: Date.now(),
  });
}

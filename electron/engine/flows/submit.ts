import type { Stats } from 'node:fs';
import { ExternalStatus } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { presignedExpiry } from '../../../shared/presigned';
import { ApiError } from '../api/errors';
import { CREATE_ANSWERED, CREATE_SENT, LeaseLostError } from '../db/jobs';
import { DiskError } from '../jobs/errors';
import { assertSourceFile } from '../media/source-file';
import { makeFolder } from '../files/make-folder';
import type { LeasedJob, StepContext } from './context';
import { madeAfterCancel } from './after-cancel';
import { takeCopy } from './copy-results';
import { createFields, round3, takeMark, type CreateMark } from './create-mark';
import { dubName } from './dub-name';
import { findAnswered, findCreated } from './lookup';
import { takeRestored } from './restored-dubs';
import { sourceBeforeUpload } from './source-check';
import { releaseStagedAudio, whatToSend } from './audio/stage';
import { createFromCopy, FIRST_UPLOAD_RECHECK_MS, planUploadOnce, type OncePlan } from './upload-once';

/** An upload URL this close to expiry is not worth starting a transfer on. */
const UPLOAD_URL_MARGIN_MS = 60_000;

/** Queued -> submitted: create the remote dub exactly once, whatever crashed or got lost before. */
export async function submit(ctx: StepContext, job: LeasedJob): Promise<void> {
  // A copy of content another job dubs: its results are linked, nothing is sent.
  if (job.row.reuse_results && !job.row.create_pending) return takeCopy(ctx, job);
  // Decided before the job moves, with no await in between: two workers never both carry one file.
  if (!job.row.create_pending && waitForFirstUpload(ctx, job)) return;
  // Where a v2 create will stand among the service's dubs (see create-mark.ts), noted before the step
  // begins: a pause asked meanwhile stops it here, before anything is sent.
  const mark = job.row.api === 'v2' && !job.row.create_pending ? await takeMark(ctx) : undefined;
  job.applyUnlessStopped({ type: 'begin-upload' });
  // A dub made before the queue database was restored: taken, never made again.
  if (!job.row.create_pending && takeRestored(ctx.store, job)) return;
  // A v2 create whose answer was lost needs no file to be looked for: the dub it made is taken up (and its
  // charge recorded) even when the file was renamed or moved since; the file is checked before a new send.
  const lookupFirst = job.row.api === 'v2' && job.row.create_pending !== 0;
  const seen =
    job.row.source_kind === 'file' && !lookupFirst ? await assertSourceFile(job.row.source) : undefined;
  // Checked again before anything is paid for: since the add, a file may have taken the folder's place.
  await makeFolder(job.row.out_dir).catch((e: NodeJS.ErrnoException) => {
    throw new DiskError(e.code === 'EEXIST' ? 'ENOTDIR' : (e.code ?? 'EIO'), job.row.out_dir, null);
  });
  if (job.row.api === 'v2') return submitV2(ctx, job, mark, seen);
  return submitThreeStep(ctx, job);
}

/** Upload once: the plan for this job now, or null when it does not take part. */
function oncePlan(ctx: StepContext, job: LeasedJob): OncePlan | null {
  const r = job.row;
  if (r.api !== 'v2' || r.source_kind !== 'file' || !r.upload_once || r.link_refused) return null;
  // The service's copy is of the sound sent: only jobs of the same audio track share it.
  const sameTrack = ctx.store.reads.sameSource(r).filter((o) => o.audio_track === r.audio_track);
  return planUploadOnce(r, sameTrack);
}

function awaitFirstUpload(job: LeasedJob, message: string): void {
  job.apply({ type: 'await-first-upload', message, runAt: Date.now() + FIRST_UPLOAD_RECHECK_MS });
}

function waitForFirstUpload(ctx: StepContext, job: LeasedJob): boolean {
  const plan = oncePlan(ctx, job);
  if (plan?.kind !== 'wait') return false;
  awaitFirstUpload(job, plan.message);
  return true;
}

async function adopt(
  ctx: StepContext,
  job: LeasedJob,
  remoteId: string,
  status: number | null,
): Promise<void> {
  try {
    job.end({ type: 'created', remoteId, status });
  } catch (e) {
    // Canceled while the create was under way, its answer came all the same: the canceled job holds the dub.
    if (e instanceof LeaseLostError) madeAfterCancel(job.store, job.row.id, remoteId, status);
    throw e;
  }
  await releaseStagedAudio(ctx, job);
}

/**
 * `early`: the mark taken before the step began (undefined: none taken yet; null: the list was unreadable).
 * `looked`: the source as the step's check of it saw it, when nothing but the disk was awaited since.
 */
async function submitV2(
  ctx: StepContext,
  job: LeasedJob,
  early: CreateMark | null | undefined,
  looked: Stats | undefined,
): Promise<void> {
  let mark = early;
  let seen = looked;
  const fields = createFields(job.row);
  if (job.row.create_pending === CREATE_ANSWERED) {
    const found = await findAnswered(ctx, job, fields, null);
    return adopt(ctx, job, found.id, found.status);
  }
  if (job.row.create_pending) {
    const found = await findCreated(ctx, job, fields);
    if (found) return adopt(ctx, job, found.id, found.status);
    job.record({ create_pending: 0 });
    if (job.row.source_kind === 'file') seen = await assertSourceFile(job.row.source);
  }
  const plan = oncePlan(ctx, job);
  if (plan?.kind === 'wait') return awaitFirstUpload(job, plan.message);
  if (plan?.kind === 'link') {
    if (mark === undefined) mark = await takeMark(ctx);
    const made = await createFromCopy(ctx, job, fields, plan.donors, mark);
    if (made) return adopt(ctx, job, made.id, made.status);
    job.checkpoint();
    seen = undefined; // the service was asked meanwhile: the file is looked at again
  }
  const expect = await sourceBeforeUpload(ctx, job, seen);
  const sending = await whatToSend(ctx, job, {
    path: job.row.source,
    type: job.row.source_type ?? 'application/octet-stream',
    expect,
  });
  // A lost answer looked for and not found: where the new create stands is noted now.
  if (mark === undefined) mark = await takeMark(ctx);
  // The last moment a pause stops the create: from here nothing is awaited until the request leaves.
  // Recorded before the request leaves: if the answer is lost, the next attempt looks for the dub first.
  job.recordUnlessStopped({
    create_pending: CREATE_SENT,
    create_attempted_at: Date.now(),
    create_mark: mark && JSON.stringify(mark),
    made_from: job.row.source_kind === 'file' ? 'upload' : null,
    donor_remote_id: null,
  });
  let dub: DubV2;
  try {
    const { v2 } = ctx.clients;
    dub =
      job.row.source_kind === 'file'
        ? await v2.createFromFile(
            sending.path,
            sending.type,
            fields,
            ctx.signal,
            (t, n) => ctx.progress(job.row.id, t, n),
            sending.expect,
          )
        : await v2.createFromUrl(job.row.source, fields, ctx.signal);
  } catch (e) {
    if (e instanceof ApiError && e.answeredUnread) {
      const found = await findAnswered(ctx, job, fields, e);
      return adopt(ctx, job, found.id, found.status);
    }
    if (e instanceof ApiError && e.kind === 'backend' && e.remoteId) {
      // The service made this dub but could not dispatch it: never adopt it, create another later.
      const abandoned = [...job.row.abandoned_remote_ids, e.remoteId];
      job.record({ create_pending: 0, abandoned_remote_ids: abandoned });
    } else if (e instanceof ApiError && e.kind === 'source') {
      // The file changed (or stalled) before its last bytes left: the request never became whole, no dub.
      job.record({ create_pending: 0 });
    } else if (e instanceof ApiError && e.status !== null && e.status >= 400 && e.status < 500) {
      job.record({ create_pending: 0 }); // refused outright: nothing was created
    }
    throw e;
  }
  return adopt(ctx, job, dub.id, dub.external_status_id);
}

function uploadExpiry(url: string): number {
  return presignedExpiry(url) ?? Date.now() + 3600_000;
}

/** v1 and legacy: init -> PUT to the pre-signed URL -> start; each step recorded, each one safe to redo. */
async function submitThreeStep(ctx: StepContext, job: LeasedJob): Promise<void> {
  const { v1, legacy } = ctx.clients;
  const isLegacy = job.row.api === 'legacy';
  if (isLegacy && !legacy)
    throw new DubdeskError('config', 'legacy jobs need the address of the legacy interface', {
      remedy: 'Set the legacy URL in the settings, then retry the job.',
      field: 'legacyUrl',
    });
  // The sound alone on the audio path (an audio-only MP4 for legacy), extracted before init names its type.
  const sending = await whatToSend(ctx, job, {
    path: job.row.source,
    type: isLegacy ? 'video/mp4' : (job.row.source_type ?? 'application/octet-stream'),
    expect: undefined,
  });
  const mime = sending.type;
  for (let round = 0; round < 3; round++) {
    const r = job.row;
    const urlStale = !r.upload_url || (r.upload_expires_at ?? 0) < Date.now() + UPLOAD_URL_MARGIN_MS;
    if (!r.remote_id || (!r.uploaded && urlStale)) {
      const init =
        isLegacy && legacy
          ? await legacy
              .init(
                {
                  dest_lang: r.dest_lang,
                  duration: Math.ceil(r.duration ?? 0),
                  fileType: mime,
                  name: dubName(r),
                  source_lang: r.source_lang,
                },
                ctx.signal,
              )
              .then((p) => ({ id: p.id, url: p.uploadUrl }))
          : await v1
              .init(
                {
                  fileType: mime,
                  name: dubName(r),
                  source_lang: r.source_lang,
                  dest_lang: r.dest_lang,
                  ...(r.duration !== null ? { duration: round3(r.duration) } : {}),
                  isStudioQuality: r.studio === 1,
                },
                ctx.signal,
              )
              .then((x) => ({ id: x.file.id, url: x.uploadUrl }));
      job.record({
        remote_id: init.id,
        upload_url: init.url,
        upload_expires_at: uploadExpiry(init.url),
        uploaded: 0,
      });
    }
    const id = job.row.remote_id ?? '';
    job.checkpoint();
    if (!job.row.uploaded) {
      try {
        const onProgress = (t: number, n: number | null) => ctx.progress(job.row.id, t, n);
        // A file that changed since it was added, or changes under the upload, is not started.
        const expect = await sourceBeforeUpload(ctx, job);
        const { path, expect: sent } =
          sending.path === job.row.source ? { ...sending, expect } : await whatToSend(ctx, job, sending);
        if (isLegacy && legacy)
          await legacy.upload(job.row.upload_url ?? '', path, ctx.signal, onProgress, sent);
        else await v1.upload(job.row.upload_url ?? '', path, mime, ctx.signal, onProgress, sent);
      } catch (e) {
        // An expired or refused upload address: ask for a new one.
        if (e instanceof ApiError && (e.kind === 'forbidden' || e.kind === 'not-found')) {
          job.record({ remote_id: null, upload_url: null, upload_expires_at: null });
          continue;
        }
        throw e;
      }
      job.record({ uploaded: 1 });
      job.checkpoint();
    }
    // The start commits the dub to a charge: a cancel while it is under way finds out what it did.
    job.record({ create_pending: CREATE_SENT });
    try {
      if (isLegacy && legacy) await legacy.start(id, ctx.signal);
      else await v1.start(id, ctx.signal);
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'conflict') return adopt(ctx, job, id, null); // already running: ours
      if (e instanceof ApiError && e.kind === 'not-uploaded') {
        job.record({ uploaded: 0, create_pending: 0 });
        continue;
      }
      if (e instanceof ApiError && e.kind === 'not-found') {
        job.record({
          remote_id: null,
          upload_url: null,
          upload_expires_at: null,
          uploaded: 0,
          create_pending: 0,
        });
        continue;
      }
      // Refused outright (no credits, a bad request): nothing was started.
      if (e instanceof ApiError && e.status !== null && e.status >= 400 && e.status < 500)
        job.record({ create_pending: 0 });
      throw e;
    }
    return adopt(ctx, job, id, ExternalStatus.InQueue);
  }
  throw new ApiError('protocol', 'the service kept refusing the upload; it will be tried again');
}

import { ExternalStatus } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { presignedExpiry } from '../../../shared/presigned';
import { ApiError } from '../api/errors';
import type { CreateV2Fields } from '../api/v2';
import { CREATE_ANSWERED, CREATE_SENT } from '../db/jobs';
import { DiskError } from '../jobs/errors';
import { assertSourceFile } from '../media/source-file';
import { makeFolder } from '../files/make-folder';
import type { LeasedJob, StepContext } from './context';
import { takeCopy } from './copy-results';
import { sourceBeforeUpload } from './source-check';
import { createFromCopy, FIRST_UPLOAD_RECHECK_MS, planUploadOnce, type OncePlan } from './upload-once';

/** How far back (local clock vs the service's) a dub may be dated and still be the one our create made. */
const CLOCK_SKEW_MS = 2 * 60_000;
/**
 * Pages of the list read when looking for a lost create's dub: 1,000 dubs made since the attempt. A service
 * that lists more (or never stops paging) gets no further requests: the job fails instead of paying twice.
 */
export const LOOKUP_MAX_PAGES = 10;
/** An upload URL this close to expiry is not worth starting a transfer on. */
const UPLOAD_URL_MARGIN_MS = 60_000;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Queued -> submitted: create the remote dub exactly once, whatever crashed or got lost before. */
export async function submit(ctx: StepContext, job: LeasedJob): Promise<void> {
  // A copy of content another job dubs: its results are linked, nothing is sent.
  if (job.row.reuse_results && !job.row.create_pending) return takeCopy(ctx, job);
  // Decided before the job moves, with no await in between: two workers never both carry one file.
  if (!job.row.create_pending && waitForFirstUpload(ctx, job)) return;
  job.apply({ type: 'begin-upload' });
  if (job.row.source_kind === 'file') await assertSourceFile(job.row.source);
  // Checked again before anything is paid for: since the add, a file may have taken the folder's place.
  await makeFolder(job.row.out_dir).catch((e: NodeJS.ErrnoException) => {
    throw new DiskError(e.code === 'EEXIST' ? 'ENOTDIR' : (e.code ?? 'EIO'), job.row.out_dir, null);
  });
  if (job.row.api === 'v2') return submitV2(ctx, job);
  return submitThreeStep(ctx, job);
}

/** Upload once: the plan for this job now, or null when it does not take part. */
function oncePlan(ctx: StepContext, job: LeasedJob): OncePlan | null {
  const r = job.row;
  if (r.api !== 'v2' || r.source_kind !== 'file' || !r.upload_once || r.link_refused) return null;
  return planUploadOnce(r, ctx.store.sameSource(r));
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

function adopt(job: LeasedJob, remoteId: string, status: number | null): void {
  job.end({ type: 'created', remoteId, status });
}

function v2Fields(job: LeasedJob): CreateV2Fields {
  const r = job.row;
  return {
    dest_lang: r.dest_lang,
    source_lang: r.source_lang,
    name: r.source_name,
    ...(r.duration !== null ? { duration: round3(r.duration) } : {}),
    is_studio_quality: r.studio === 1,
  };
}

async function submitV2(ctx: StepContext, job: LeasedJob): Promise<void> {
  const fields = v2Fields(job);
  if (job.row.create_pending) {
    const found = await findCreated(ctx, job, fields);
    if (found) return adopt(job, found.id, found.external_status_id);
    if (job.row.create_pending === CREATE_ANSWERED) throw notFoundAfterYes(job);
    job.record({ create_pending: 0 });
  }
  const plan = oncePlan(ctx, job);
  if (plan?.kind === 'wait') return awaitFirstUpload(job, plan.message);
  if (plan?.kind === 'link') {
    const made = await createFromCopy(ctx, job, fields, plan.donors);
    if (made) return adopt(job, made.id, made.external_status_id);
    job.checkpoint();
  }
  const expect = await sourceBeforeUpload(ctx, job);
  // Recorded before the request leaves: if the answer is lost, the next attempt looks for the dub first.
  job.record({
    create_pending: CREATE_SENT,
    create_attempted_at: Date.now(),
    made_from: job.row.source_kind === 'file' ? 'upload' : null,
    donor_remote_id: null,
  });
  let dub: DubV2;
  try {
    const { v2 } = ctx.clients;
    dub =
      job.row.source_kind === 'file'
        ? await v2.createFromFile(
            job.row.source,
            job.row.source_type ?? 'application/octet-stream',
            fields,
            ctx.signal,
            (t, n) => ctx.progress(job.row.id, t, n),
            expect,
          )
        : await v2.createFromUrl(job.row.source, fields, ctx.signal);
  } catch (e) {
    if (e instanceof ApiError && e.answeredUnread) {
      job.record({ create_pending: CREATE_ANSWERED }); // the dub exists: looked for next time, never made again
    } else if (e instanceof ApiError && e.kind === 'backend' && e.remoteId) {
      // The service made this dub but could not dispatch it: never adopt it, create another later.
      const abandoned = [...(JSON.parse(job.row.abandoned_remote_ids) as string[]), e.remoteId];
      job.record({ create_pending: 0, abandoned_remote_ids: JSON.stringify(abandoned) });
    } else if (e instanceof ApiError && e.kind === 'source') {
      // The file changed (or stalled) before its last bytes left: the request never became whole, no dub.
      job.record({ create_pending: 0 });
    } else if (e instanceof ApiError && e.status !== null && e.status >= 400 && e.status < 500) {
      job.record({ create_pending: 0 }); // refused outright: nothing was created
    }
    throw e;
  }
  adopt(job, dub.id, dub.external_status_id);
}

/** A create the service said yes to, whose dub the lookup cannot find: another one would be paid for too. */
function notFoundAfterYes(job: LeasedJob): DubdeskError {
  const r = job.row;
  return new DubdeskError(
    'service',
    `the service took the dub of ${r.source_name} into ${r.dest_lang}, but its answer could not be read and that dub is not in its list; Dubdesk made no other, so as not to pay twice`,
    {
      remedy:
        'Check the dubs in your account on the service. Retrying this job only looks for that dub again; to have a new one made, clear this job and add the file again.',
    },
  );
}

/** Newest first, the dub our lost create made: same name, language and hint, made after the attempt, nobody's yet. */
async function findCreated(ctx: StepContext, job: LeasedJob, fields: CreateV2Fields): Promise<DubV2 | null> {
  const since = (job.row.create_attempted_at ?? 0) - CLOCK_SKEW_MS;
  const taken = ctx.store.remoteIdsOwnedByOthers(job.row.id);
  const abandoned = new Set(JSON.parse(job.row.abandoned_remote_ids) as string[]);
  for (let page = 1; ; page++) {
    // Each page is an HTTP call of its own: a stop asked (the first Ctrl+C, a pause) takes effect here.
    if (page > 1) job.checkpoint();
    if (page > LOOKUP_MAX_PAGES)
      throw new ApiError(
        'protocol',
        `the service lists more than ${LOOKUP_MAX_PAGES * 100} dubs newer than this job's lost create; Dubdesk stopped looking rather than risk paying twice`,
      );
    const list = await ctx.clients.v2.list(page, 100, ctx.signal);
    for (const d of list.dubs) {
      const created = Date.parse(d.created_at);
      if (created < since) return null;
      if (taken.has(d.id) || abandoned.has(d.id) || d.external_status_id === ExternalStatus.Failed) continue;
      // The duration hint tells two same-named files apart; a service may round what it echoes back.
      const sameHint = fields.duration === undefined || Math.abs(d.duration - fields.duration) < 1;
      if (d.name === fields.name && d.dest_lang === fields.dest_lang && sameHint) return d;
    }
    if (page >= list.pagination.total_pages || list.dubs.length === 0) return null;
  }
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
  const mime = isLegacy ? 'video/mp4' : (job.row.source_type ?? 'application/octet-stream');
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
                  name: r.source_name,
                  source_lang: r.source_lang,
                },
                ctx.signal,
              )
              .then((p) => ({ id: p.id, url: p.uploadUrl }))
          : await v1
              .init(
                {
                  fileType: mime,
                  name: r.source_name,
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
        if (isLegacy && legacy)
          await legacy.upload(job.row.upload_url ?? '', job.row.source, ctx.signal, onProgress, expect);
        else await v1.upload(job.row.upload_url ?? '', job.row.source, mime, ctx.signal, onProgress, expect);
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
    try {
      if (isLegacy && legacy) await legacy.start(id, ctx.signal);
      else await v1.start(id, ctx.signal);
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'conflict') return adopt(job, id, null); // already running: ours
      if (e instanceof ApiError && e.kind === 'not-uploaded') {
        job.record({ uploaded: 0 });
        continue;
      }
      if (e instanceof ApiError && e.kind === 'not-found') {
        job.record({ remote_id: null, upload_url: null, upload_expires_at: null, uploaded: 0 });
        continue;
      }
      throw e;
    }
    return adopt(job, id, ExternalStatus.InQueue);
  }
  throw new ApiError('protocol', 'the service kept refusing the upload; it will be tried again');
}

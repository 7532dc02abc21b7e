import { basename } from 'node:path';
import type { ContractError } from '../../../shared/contract/errors';
import type { JobRow, NewJob } from '../db/jobs';
import type { WatchFileRow, WatchFolderRow } from '../db/watch';
import { enqueue, transition } from '../jobs/life';
import { creditsOfJobs, outDirOf, twinOf, wantsCopy, type Cover } from './copies';
import type { WatchEnv } from './env';
import { guard, unknownCost } from './guard';
import { renamedFrom } from './renames';
import { setAsideResultCopy } from './result-copy';
import { waitAgain } from './settle';

interface Candidate {
  row: WatchFileRow;
  covered: Map<string, Cover>;
  needed: string[];
}

interface Planned extends Candidate {
  /** New jobs: dubs of the languages not covered, and copies of covered ones under this file's names. */
  jobs: NewJob[];
  /** Covers shared as they are (their results already carry this file's names, or are gone). */
  shared: Cover[];
  /** Queued jobs of this very content (a manual add): linked, not made twice. */
  adopt: number[];
  /** Jobs of an earlier version of the path that never started: canceled, the new version replaces them. */
  supersede: number[];
  credits: number;
  duration: number | null;
  /** A dub among its jobs whose source does not say its length: its cost is unknown (see `unknownCost`). */
  lengthUnknown: boolean;
}

export interface TakeResult {
  /** Jobs queued. */
  jobIds: number[];
  taken: number;
  duplicates: number;
  awaiting: number;
}

/** Where the file is now: where it was found, or where `after: move` put it (a reprocess of a moved file). */
export const locationOf = (row: Pick<WatchFileRow, 'path' | 'moved_to'>) => row.moved_to ?? row.path;

/**
 * Ready files (stable, hashed) become jobs: unless a user forced it, each language already dubbed (or being
 * dubbed) from the same content with this preset version is not paid again: a copy job links that dub's
 * results under this file's own names, at no charge (a file whose every language is covered so is a
 * duplicate); the rest is probed and planned as `add` plans, checked against what the queue holds for the
 * same path, held for approval when over the folder's credit limit or the balance, and queued — each file
 * in one transaction that first checks nobody else took it meanwhile.
 */
export async function takeReady(
  env: WatchEnv,
  folder: WatchFolderRow,
  rows: readonly WatchFileRow[],
): Promise<TakeResult> {
  const result: TakeResult = { jobIds: [], taken: 0, duplicates: 0, awaiting: 0 };
  const candidates: Candidate[] = [];
  for (const row of rows) {
    if (row.status !== 'ready' || !row.hash) continue;
    const now = Date.now();
    if (!row.forced && touchedOnly(env, folder, row, now)) continue;
    if (setAsideResultCopy(env, row, now)) continue;
    const covered = row.forced ? new Map<string, Cover>() : coverage(env, folder, row);
    const needed = folder.preset.to.filter((l) => !covered.has(l));
    const names = {
      out_dir: outDirOf(folder, row.path),
      naming: folder.preset.naming,
      source_name: basename(locationOf(row)),
    };
    const copied = (c: Cover) => wantsCopy(env, c, names) && !renamedFrom(env, row, c);
    if (needed.length === 0 && ![...covered.values()].some(copied)) {
      if (markDuplicate(env, folder, row, covered, now)) result.duplicates++;
      continue;
    }
    candidates.push({ row, covered, needed });
  }
  if (candidates.length === 0) return result;

  const planned = await plan(env, folder, candidates);
  // Copies cost nothing: they never wait for approval. A file of unknown length waits on its own.
  const gated = planned.filter((p) => !p.row.approved && !p.row.forced && (p.credits > 0 || p.lengthUnknown));
  const priced = gated.filter((p) => !p.lengthUnknown);
  const hold = priced.length ? await guard(env, folder, priced) : null;
  const holds: ContractError[] = [];
  const now = Date.now();
  for (const p of planned) {
    const why = !gated.includes(p) ? null : p.lengthUnknown ? unknownCost(locationOf(p.row)) : hold;
    if (why) {
      const ok = env.watch.files.update(
        p.row.id,
        p.row.rev,
        {
          status: 'awaiting-approval',
          credits: p.lengthUnknown ? null : p.credits,
          duration: p.duration,
          preset_version: folder.preset_version,
          problem: why,
          next_check_at: null,
        },
        now,
      );
      if (ok) result.awaiting++;
      if (ok) holds.push(why);
      continue;
    }
    const ids = commit(env, folder, p, now);
    if (ids) {
      result.taken++;
      result.jobIds.push(...ids);
    }
  }
  if (result.awaiting)
    env.warn(
      { folder: folder.path, files: result.awaiting },
      `watched files wait for approval: ${[...new Set(holds.map((h) => h.message))].join('; ')}`,
    );
  if (result.taken || result.duplicates)
    env.info(
      { folder: folder.path, files: result.taken, duplicates: result.duplicates, jobs: result.jobIds.length },
      'watched files queued',
    );
  return result;
}

/**
 * Only the mtime of a taken file moved (touched, copied over itself): same content and preset version as
 * the version before, still in place. The path goes back to that version; nothing is queued.
 */
function touchedOnly(env: WatchEnv, folder: WatchFolderRow, row: WatchFileRow, now: number): boolean {
  const previous = env.watch.files.previousVersion(folder.id, row.path);
  if (
    !previous ||
    previous.hash !== row.hash ||
    previous.preset_version !== folder.preset_version ||
    previous.moved_to
  )
    return false;
  env.store.tx(() => {
    if (!env.watch.files.delete(row.id, row.rev)) return;
    env.watch.files.update(
      previous.id,
      previous.rev,
      { current: 1, size: row.size, mtime_ms: row.mtime_ms },
      now,
    );
  });
  return true;
}

/** The languages already dubbed (or being dubbed) from this content with this preset version. */
function coverage(env: WatchEnv, folder: WatchFolderRow, row: WatchFileRow): Map<string, Cover> {
  const covered = new Map<string, Cover>();
  const same = env.watch.files.sameContent(folder.id, row.hash ?? '', folder.preset_version, row.id);
  const rank = (state: string) => (state === 'completed' ? 0 : 1);
  const linked = env.watch.links
    .linkedJobs(same.map((s) => s.id))
    .filter((j) => j.state !== 'failed' && j.state !== 'canceled')
    .sort((a, b) => rank(a.state) - rank(b.state));
  for (const j of linked)
    if (!covered.has(j.dest_lang)) covered.set(j.dest_lang, { jobId: j.job_id, fileId: j.file_id });
  // Dubbed by hand before the folder was watched: the same file, unchanged, same source language and quality.
  const studio = folder.preset.studio ? 1 : 0;
  for (const lang of folder.preset.to) {
    if (covered.has(lang)) continue;
    const done = env.store.reads
      .completed(row.path, lang)
      .find(
        (r) =>
          r.source_bytes === row.size &&
          r.source_mtime === row.mtime_ms &&
          r.source_lang === folder.preset.from &&
          r.studio === studio,
      );
    if (done) covered.set(lang, { jobId: done.id, fileId: null });
  }
  return covered;
}

function markDuplicate(
  env: WatchEnv,
  folder: WatchFolderRow,
  row: WatchFileRow,
  covered: Map<string, Cover>,
  now: number,
): boolean {
  const original = [...covered.values()].find((c) => c.fileId !== null)?.fileId ?? null;
  const duration = original === null ? null : (env.watch.files.get(original)?.duration ?? null);
  return env.store.tx(() => {
    const ok = env.watch.files.update(
      row.id,
      row.rev,
      {
        status: 'duplicate',
        duplicate_of: original,
        taken_at: now,
        credits: 0,
        duration,
        preset_version: folder.preset_version,
        problem: null,
        next_check_at: null,
        outcome: null,
      },
      now,
    );
    if (ok) for (const c of covered.values()) env.watch.links.link(row.id, c.jobId, false);
    return ok;
  });
}

/** Whether a job of an earlier version never started: nothing was uploaded, nothing made, nobody holds it. */
const notStarted = (j: JobRow) =>
  (j.state === 'queued' || j.state === 'paused') &&
  j.step === 'submit' &&
  j.lease_token === null &&
  j.uploaded === 0 &&
  j.create_pending === 0;

/** Probes and plans the candidates; refused files wait, changed ones settle again, busy paths wait. */
async function plan(env: WatchEnv, folder: WatchFolderRow, candidates: Candidate[]): Promise<Planned[]> {
  const planned = await env.plan(
    candidates.map((c) => locationOf(c.row)),
    folder.preset,
    folder.id,
  );
  const refused = new Map(planned.refused.map((r) => [r.input, r.error]));
  const bySource = new Map<string, NewJob[]>();
  for (const j of planned.jobs) bySource.set(j.source, [...(bySource.get(j.source) ?? []), j]);
  const out: Planned[] = [];
  const now = Date.now();
  for (const c of candidates) {
    const where = locationOf(c.row);
    const row = env.watch.files.get(c.row.id);
    if (!row || row.rev !== c.row.rev) continue;
    const error = refused.get(where);
    const all = bySource.get(where);
    if (error || !all?.length) {
      waitAgain(env, row, error ?? { code: 'internal', message: `${where} could not be planned` }, now);
      continue;
    }
    if (all.some((j) => j.source_bytes !== row.size || j.source_mtime !== row.mtime_ms)) {
      env.watch.files.update(
        row.id,
        row.rev,
        { status: 'settling', changed_at: now, next_check_at: now + env.timing.settleMs, hash: null },
        now,
      );
      continue;
    }
    const outDir = outDirOf(folder, row.path);
    const jobs: NewJob[] = [];
    const shared: Cover[] = [];
    const adopt: number[] = [];
    const supersede: number[] = [];
    let busy: JobRow | null = null;
    for (const planned of all) {
      const cover = c.covered.get(planned.dest_lang);
      const named = { ...planned, out_dir: outDir, watch_folder_id: folder.id };
      if (cover && (!wantsCopy(env, cover, named) || renamedFrom(env, row, cover))) {
        shared.push(cover);
        continue;
      }
      const job: NewJob = cover ? { ...named, reuse_results: 1 } : named;
      const live = env.store.reads.live(job.source, job.dest_lang, job.audio_track);
      if (live && notStarted(live) && live.source_bytes === row.size && live.source_mtime === row.mtime_ms) {
        adopt.push(live.id);
        continue;
      }
      if (live && !(notStarted(live) || live.state === 'failed')) {
        busy = live;
        break;
      }
      if (live) supersede.push(live.id);
      jobs.push(job);
    }
    if (busy) {
      waitAgain(
        env,
        row,
        {
          code: 'conflict',
          message: `an earlier version of ${row.path} is still being dubbed (job ${busy.id}, ${busy.state}); this one follows`,
        },
        now,
        false,
      );
      continue;
    }
    const duration = all[0]?.duration ?? null;
    const lengthUnknown = jobs.some((j) => !j.reuse_results && j.duration === null);
    const credits = creditsOfJobs(jobs);
    out.push({ ...c, row, jobs, shared, adopt, supersede, credits, duration, lengthUnknown });
  }
  return out;
}

/** One file's jobs, in one transaction that first checks the file is still as planned. */
function commit(env: WatchEnv, folder: WatchFolderRow, p: Planned, now: number): number[] | null {
  const { store, watch } = env;
  const canceled: JobRow[] = [];
  try {
    const ids = store.tx(() => {
      // Content another job is dubbing right now (an identical file taken a moment before): copied.
      const twins: JobRow[] = [];
      const jobs = p.jobs.map((j) => {
        const twin = p.row.forced ? null : twinOf(env, j);
        if (twin) twins.push(twin);
        return twin ? { ...j, reuse_results: 1 } : j;
      });
      const copies = jobs.length > 0 && p.adopt.length === 0 && jobs.every((j) => j.reuse_results);
      const original = copies ? originalOf(env, p, twins) : null;
      const ok = watch.files.update(
        p.row.id,
        p.row.rev,
        {
          status: copies ? 'duplicate' : 'taken',
          taken_at: now,
          credits: p.lengthUnknown ? null : creditsOfJobs(jobs),
          duration: p.duration,
          preset_version: folder.preset_version,
          problem: null,
          next_check_at: null,
          duplicate_of: original,
          outcome: null,
          attempts: 0,
        },
        now,
      );
      if (!ok) return null;
      for (const id of p.supersede) canceled.push(transition(store, id, 'user', { type: 'cancel' }));
      const reason = `found in the watched folder ${folder.path}`;
      const added = jobs.map((j) => enqueue(store, j, reason, now));
      // A reprocess shows its new jobs, not the ones before.
      if (p.row.forced) watch.links.unlinkAll(p.row.id);
      for (const id of [...added, ...p.adopt]) watch.links.link(p.row.id, id, true);
      for (const c of p.shared) watch.links.link(p.row.id, c.jobId, false);
      return added;
    });
    if (ids === null) return null;
    if (canceled.length)
      env.info(
        { path: p.row.path, jobs: canceled.map((r) => r.id) },
        'superseded by a newer version of the file',
      );
    return ids;
  } catch (e) {
    // Another job of the same path and language appeared meanwhile (a manual add): look again later.
    const fresh = watch.files.get(p.row.id);
    if (fresh)
      waitAgain(
        env,
        fresh,
        { code: 'conflict', message: `${p.row.path} could not be queued: ${(e as Error).message}` },
        now,
      );
    return null;
  }
}

/** The file a duplicate's results are copied from: the one whose dub covers it, or that dubs its twin. */
function originalOf(env: WatchEnv, p: Planned, twins: readonly JobRow[]): number | null {
  for (const c of p.covered.values()) if (c.fileId !== null) return c.fileId;
  for (const t of twins) {
    const owner = env.watch.links.ownerOf(t.id);
    if (owner !== null) return owner;
  }
  return null;
}

import { resultStem } from '../outputs/result-stem';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, parse } from 'node:path';
import { ExternalStatus, OUTPUT_TYPES, type OutputLink, type OutputType } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { OutputSelectionSchema, type OutputSelection } from '../../../shared/contract/jobs';
import { serviceValueText } from '../../../shared/text';
import { ApiError } from '../api/errors';
import type { OutputRow } from '../db/jobs';
import { recordResult } from '../db/result-contents';
import { NameTakenError } from '../files/own-file';
import { KeyLock } from '../outputs/key-lock';
import { makeFolder } from '../files/make-folder';
import {
  PER_SOURCE_OUTPUTS,
  alreadySettled,
  freeName,
  freeVariant,
  outputPath,
  sanitizeName,
  settle,
  withVariant,
} from '../outputs/naming';
import { statement } from '../db/statements';
import type { Db } from '../db/open';
import { movePreviousVersions } from './previous-version';
import { USUAL_FORMAT, formatsFor, sniffOutput } from '../outputs/sniff';
import type { LeasedJob, StepContext } from './context';
import { head, identicalOutput, sameBytesAt, local, outputByteCap, sourceOutputs } from './output-files';

/** Fresh links after an expired one: at most this many times per output and attempt. */
const MAX_LINK_REFRESHES = 3;
/** Names found taken by an entry planted at their part (see files/own-file): another name, this many times. */
const MAX_TAKEN_NAMES = 3;
/** The languages of one source take turns at the outputs they share (see KeyLock). */
const sharedOutputs = new KeyLock();
/** One job at a time picks names in a folder (see `claimOwnNames`). */
const naming = new KeyLock();

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

/** Whether another job downloading now has claimed `path` for one of its results. */
function recordedForAnother(db: Db, path: string, id: number): boolean {
  // Only a claim still being downloaded: a finished result is on the disk (or was deleted, and its name is
  // free again), and a failed or canceled job's claim is nobody's.
  return (
    statement(
      db,
      `SELECT 1 FROM outputs o JOIN jobs j ON j.id = o.job_id
        WHERE o.path = ? AND o.job_id <> ? AND o.done = 0 AND j.state = 'downloading' LIMIT 1`,
    ).get(path, id) !== undefined
  );
}

/** Completed -> files on disk: each output to `.part`, length-checked, then moved to a name nobody has. */
export async function fetchOutputs(ctx: StepContext, job: LeasedJob): Promise<void> {
  const r = job.row;
  const remoteId = r.remote_id;
  if (!remoteId) throw new ApiError('protocol', 'completed job has no remote dub id');
  let dub: DubV2;
  try {
    dub = ctx.seen?.take(remoteId) ?? (await ctx.clients.v2.get(remoteId, ctx.signal));
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'not-found') return job.apply({ type: 'remote-missing' });
    throw e;
  }
  if (dub.external_status_id === ExternalStatus.Failed)
    return job.apply({ type: 'remote-failed', message: describeRemoteError(dub.external_error_message) });
  if (dub.external_status_id !== ExternalStatus.Completed) return job.apply({ type: 'not-completed' });
  assertLanguage(dub.dest_lang, r.dest_lang, remoteId);

  const wanted = chooseOutputs(parseSelection(r.outputs_wanted), dub, r.source_type);
  if (wanted.length === 0)
    throw new DubdeskError(
      'service',
      `the service offered none of the requested outputs (it has: ${Object.keys(dub.outputs).join(', ') || 'nothing'})`,
      { remedy: 'Retry with other outputs, or dub it again.' },
    );
  await makeFolder(r.out_dir).catch((e: unknown) => {
    throw local(e, r.out_dir, null);
  });
  const stem = resultStem(
    r.source_kind === 'file' ? parse(r.source_name).name : sanitizeName(parse(dub.name).name),
  );
  const existing = new Map(ctx.store.outputs(r.id).map((o) => [o.type, o]));
  const planned = new Set([...existing.values()].map((o) => o.path));
  const place = (type: OutputType, ext: string) =>
    join(r.out_dir, outputPath(r.naming, stem, r.dest_lang, type, ext, wanted));

  // Outputs moved into place whose `done` waits for the next record written (one commit where there were
  // two): until then each is recorded with its path and length, which a resume recognises on disk.
  const moved: OutputRow[] = [];
  /** This job's outputs as recorded, or about to be: what an identical download is compared with. */
  const known = new Map(existing);
  const put = (row: OutputRow) => {
    ctx.store.putOutputs([...moved.splice(0), row]);
    known.set(row.type, row);
  };

  // An earlier version's results go to `previous/` before any name is picked (never a `(2)` here).
  if (wanted.some((t) => !existing.has(t)))
    await movePreviousVersions(ctx.store, r).catch((e: unknown) => {
      throw local(e, r.out_dir, null);
    });
  /**
   * One name variant for all of the job's own files, so media and subtitles pair (see freeVariant). Not the
   * outputs shared by the source's languages: another language may be fetching them right now.
   */
  let variant: Promise<number> | undefined;
  const ownTypes = wanted.filter((t) => !PER_SOURCE_OUTPUTS.has(t));
  /**
   * Picks the variant and claims all of the job's own names at once, recorded before the folder's lock is
   * let go: a job of a same-stem source (`talk.mkv`, `talk.mp3`) downloading at the same moment then sees
   * them, where the disk shows nothing until a download begins.
   */
  const claimOwnNames = () =>
    (variant ??= naming.run(r.out_dir, async () => {
      const n = await freeVariant(
        ownTypes.map((t) => place(t, USUAL_FORMAT[t])),
        (p) => planned.has(p),
        (p) => recordedForAnother(ctx.store.db, p, r.id),
      );
      for (const t of ownTypes) {
        if (known.has(t)) continue;
        const usual = place(t, USUAL_FORMAT[t]);
        const p = join(dirname(usual), withVariant(basename(usual), n));
        planned.add(p);
        put({ job_id: r.id, type: t, path: p, bytes: null, done: 0 });
      }
      return n;
    }));
  const freeFor = async (wantedPath: string, type: OutputType, mine: (p: string) => boolean) => {
    const from = PER_SOURCE_OUTPUTS.has(type) ? 1 : await claimOwnNames();
    return freeName(dirname(wantedPath), parse(wantedPath).base, mine, from);
  };

  /** A language-independent output another language of this source saved here: shared, not fetched again. */
  const shareSourceOutput = async (type: OutputType, before: OutputRow | undefined): Promise<boolean> => {
    for (const o of sourceOutputs(ctx.store, r, type)) {
      const info = await stat(o.path).catch(() => null);
      if (!info?.isFile() || info.size !== o.bytes) continue;
      // What this job began before a crash is not needed any more.
      if (before && before.path !== o.path) await rm(`${before.path}.part`, { force: true });
      put({ job_id: r.id, type, path: o.path, bytes: o.bytes, done: 1 });
      return true;
    }
    return false;
  };

  // A download resumes from its part file: the first Ctrl+C (the drain) stops it at once, losing nothing.
  const transferSignal = ctx.drain ? AbortSignal.any([ctx.signal, ctx.drain]) : ctx.signal;
  const fetchOne = async (type: OutputType, before: OutputRow | undefined, perSource: boolean) => {
    if (perSource && (await shareSourceOutput(type, before))) return;
    let link: OutputLink | undefined = dub.outputs[type];
    // The job's own names are claimed together, the first time one is needed.
    if (!before && !perSource) await claimOwnNames();
    const claimed = before ?? (perSource ? undefined : known.get(type));
    let path = claimed?.path;
    // A name picked just now has no `.part` yet (freeName made sure): the download need not look for one.
    let fresh = !before && claimed !== undefined;
    const wantedPath = path ?? place(type, USUAL_FORMAT[type]);
    if (dirname(wantedPath) !== r.out_dir)
      await makeFolder(dirname(wantedPath)).catch((e: unknown) => {
        throw local(e, dirname(wantedPath), null);
      });
    if (!path) {
      // A shared output's part left by another language's attempt that a crash cut: nobody holds it now.
      if (perSource) await rm(`${wantedPath}.part`, { force: true });
      path = await freeFor(wantedPath, type, (p) => planned.has(p));
      planned.add(path);
      fresh = true;
      put({ job_id: r.id, type, path, bytes: null, done: 0 });
    }
    let result;
    for (let refresh = 0, taken = 0; ; refresh++) {
      if (!link) throw new ApiError('protocol', `the service no longer offers ${type}`);
      try {
        result = await ctx.clients.downloads.toPart(
          link.download_url,
          `${path}.part`,
          transferSignal,
          (t, n) => ctx.progress(r.id, t, n),
          fresh,
          outputByteCap(r, dub.measured_duration),
        );
        break;
      } catch (e) {
        if (e instanceof NameTakenError && taken++ < MAX_TAKEN_NAMES) {
          // Someone put an entry at the part's name: it is theirs; this output takes the next free name.
          path = await freeFor(place(type, extname(path).slice(1)), type, (p) => planned.has(p));
          planned.add(path);
          fresh = true;
          put({ job_id: r.id, type, path, bytes: null, done: 0 });
          refresh--;
          continue;
        }
        if (!(e instanceof ApiError && e.kind === 'forbidden')) {
          const have = await stat(`${path}.part`).then(
            (s) => s.size,
            () => 0,
          );
          const need = (r.source_bytes ?? 0) > have ? (r.source_bytes ?? 0) - have : null;
          throw local(e, dirname(path), need);
        }
        if (refresh >= MAX_LINK_REFRESHES) {
          // Fresh links refused again and again: the storage side is unwell; retry later with backoff.
          throw new ApiError(
            'server',
            `the service's links for ${type} keep being refused: ${e.message}`,
            e.status,
          );
        }
        fresh = false; // the refused attempt may have left a part behind
        dub = await ctx.clients.v2.get(remoteId, ctx.signal); // the link expired: fresh ones, then resume
        link = dub.outputs[type];
      }
    }
    // The extension is what the bytes are, from a short list of media formats: never what the service names.
    const sniffed = await sniffOutput(type, result.contentType, await head(`${path}.part`, result.identity));
    if (!sniffed.ok) {
      await rm(`${path}.part`, { force: true });
      if (sniffed.page)
        throw new ApiError('protocol', `the service sent ${sniffed.what} instead of the ${type} file`);
      throw new DubdeskError(
        'service',
        `the service sent ${sniffed.what} as ${type} (${linkName(link.download_url)}); Dubdesk saves ${type} only as ${formatsFor(type)}, so it was not saved`,
        {
          remedy:
            'Retry later; if it happens again, report it to the service (its files may have been tampered with).',
        },
      );
    }
    if (extname(path).slice(1) !== sniffed.format) {
      // Record the new name first, then move the part.
      const wantedPath = place(type, sniffed.format);
      const renamed = await freeFor(wantedPath, type, (p) => planned.has(p) && p !== path);
      put({ job_id: r.id, type, path: renamed, bytes: null, done: 0 });
      await rename(`${path}.part`, `${renamed}.part`);
      path = renamed;
    }
    const twin = await identicalOutput([...known.values()], result.sha256, result.bytes);
    if (twin) {
      // The same bytes under two output types (`translated` is often the MP4 itself): keep one file.
      await rm(`${path}.part`, { force: true });
      put({ job_id: r.id, type, path: twin.path, bytes: twin.bytes, done: 1 });
      return;
    }
    // This very result already beside the source under its plain name, nobody's record (written before the
    // queue database was restored): the same bytes are taken where they are, never kept twice as `(2)`.
    const plain = place(type, sniffed.format);
    if (
      path !== plain &&
      !recordedForAnother(ctx.store.db, plain, r.id) &&
      (await sameBytesAt(plain, result.bytes, result.sha256))
    ) {
      await rm(`${path}.part`, { force: true });
      put({ job_id: r.id, type, path: plain, bytes: result.bytes, done: 1 });
      await recordResult(ctx.store.db, plain, result.sha256);
      return;
    }
    // Recorded before the move, so a crash during it is recognised on the next run.
    put({ job_id: r.id, type, path, bytes: result.bytes, done: 0 });
    const final = await settle(`${path}.part`, path, result.identity).catch((e: unknown) => {
      throw local(e, dirname(path ?? r.out_dir), null);
    });
    const settled: OutputRow = { job_id: r.id, type, path: final, bytes: result.bytes, done: 1 };
    // Moved under another name (the wanted one was taken meanwhile): a resume would not find it, record now.
    if (final !== path) put(settled);
    else {
      moved.push(settled);
      known.set(type, settled);
    }
    await recordResult(ctx.store.db, final, result.sha256);
  };

  let first = true;
  try {
    for (const type of wanted) {
      if (!first) job.checkpoint();
      first = false;
      const before = existing.get(type);
      if (before?.done) continue;
      if (before && before.bytes !== null && (await alreadySettled(before.path, before.bytes))) {
        put({ ...before, done: 1 }); // a crash hit between moving the file and recording it
        continue;
      }
      if (PER_SOURCE_OUTPUTS.has(type))
        await sharedOutputs.run(`${r.source}\0${r.out_dir}\0${type}`, () => fetchOne(type, before, true));
      else await fetchOne(type, before, false);
    }
  } catch (e) {
    // A later output failed: what was moved into place is recorded as done all the same.
    if (moved.length > 0) ctx.store.putOutputs(moved.splice(0));
    // A file gone between two steps of a download: its folder was moved or deleted meanwhile.
    throw (e as NodeJS.ErrnoException)?.code === 'ENOENT' ? local(e, r.out_dir, null) : e;
  }
  // The last records go with the job's completion, in one transaction: nothing happens between the two, so
  // a crash finds exactly what it found before (the moves recorded, recognised on resume).
  try {
    job.end({ type: 'downloaded', measuredDuration: dub.measured_duration }, () =>
      ctx.store.putOutputs(moved),
    );
  } catch (e) {
    // The job was taken meanwhile (canceled…): the files are in place all the same, and recorded so.
    ctx.store.putOutputs(moved);
    throw e;
  }
}

/** The last segment of a link's path (no query: it may carry a signature), for a message. */
function linkName(url: string): string {
  try {
    return new URL(url).pathname.split('/').pop() || url;
  } catch {
    return 'a link that is not a URL';
  }
}

/** The service's failure message, as text a user can read (its shape is not specified). */
export function describeRemoteError(error: unknown): string {
  return serviceValueText(error) || 'the service reported that the dub failed';
}

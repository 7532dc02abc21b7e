import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { makeFolder } from '../outputs/make-folder';
import { createHash } from 'node:crypto';
import { dirname, extname, join, parse } from 'node:path';
import { ExternalStatus, OUTPUT_TYPES, type OutputLink, type OutputType } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { OutputSelectionSchema, type OutputSelection } from '../../../shared/contract/jobs';
import { serviceValueText } from '../../../shared/text';
import { HEAD_BYTES, PartWriteError } from '../api/download';
import { ApiError } from '../api/errors';
import type { JobRow, JobStore, OutputRow } from '../db/jobs';
import { DiskError } from '../jobs/errors';
import {
  PER_SOURCE_OUTPUTS,
  alreadySettled,
  extensionFor,
  freeName,
  outputPath,
  sanitizeName,
  settle,
} from '../outputs/naming';
import { notTheFile } from '../outputs/sniff';
import type { LeasedJob, StepContext } from './context';

/** Fresh links after an expired one: at most this many times per output and attempt. */
const MAX_LINK_REFRESHES = 3;
const LOCAL_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EEXIST']);

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

/** Local file-system failures become DiskErrors (they are never "the network"). */
function local(e: unknown, dir: string, needBytes: number | null): unknown {
  if (e instanceof PartWriteError) return new DiskError(e.code, dir, e.remainingBytes ?? needBytes);
  const err = e as NodeJS.ErrnoException;
  if (err?.code && LOCAL_ERRNOS.has(err.code) && !(e instanceof ApiError))
    return new DiskError(
      err.code === 'EEXIST' || err.code === 'ENOTDIR' ? 'ENOTDIR' : err.code,
      dir,
      needBytes,
    );
  return e;
}

/** The first bytes of a file (fewer when it is shorter). */
async function head(path: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A language-independent output (the original, its subtitles, the poster) that another job of the same
 * source already saved in the same folder, still on disk at its recorded size.
 */
async function siblingCopy(store: JobStore, r: JobRow, type: OutputType): Promise<OutputRow | null> {
  for (const other of store.page({ source: r.source }, 0, 500).rows) {
    if (other.id === r.id || other.out_dir !== r.out_dir) continue;
    const o = store.outputs(other.id).find((x) => x.type === type && x.done === 1);
    if (!o || o.bytes === null) continue;
    const info = await stat(o.path).catch(() => null);
    if (info?.isFile() && info.size === o.bytes) return o;
  }
  return null;
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
  const stem = r.source_kind === 'file' ? parse(r.source_name).name : sanitizeName(parse(dub.name).name);
  const existing = new Map(ctx.store.outputs(r.id).map((o) => [o.type, o]));
  const planned = new Set([...existing.values()].map((o) => o.path));
  const alsoMp4 = wanted.includes('translated_mp4');
  const place = (type: OutputType, ext: string) =>
    join(r.out_dir, outputPath(r.naming, stem, r.dest_lang, type, ext, alsoMp4));

  // Outputs moved into place whose `done` waits for the next record written (one commit where there were
  // two): until then each is recorded with its path and length, which a resume recognises on disk.
  const moved: OutputRow[] = [];
  /** This job's outputs as recorded, or about to be: what an identical download is compared with. */
  const known = new Map(existing);
  const put = (row: OutputRow) => {
    ctx.store.putOutputs([...moved.splice(0), row]);
    known.set(row.type, row);
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
      if (PER_SOURCE_OUTPUTS.has(type)) {
        const copy = await siblingCopy(ctx.store, r, type);
        if (copy) {
          put({ job_id: r.id, type, path: copy.path, bytes: copy.bytes, done: 1 });
          continue;
        }
      }
      let link: OutputLink | undefined = dub.outputs[type];
      let path = before?.path;
      // A name picked just now has no `.part` yet (freeName made sure): the download need not look for one.
      let fresh = false;
      if (!path) {
        const wantedPath = place(type, extensionFor(type, null, link?.download_url ?? null));
        if (dirname(wantedPath) !== r.out_dir)
          await makeFolder(dirname(wantedPath)).catch((e: unknown) => {
            throw local(e, dirname(wantedPath), null);
          });
        path = await freeName(dirname(wantedPath), parse(wantedPath).base, (p) => planned.has(p));
        planned.add(path);
        fresh = true;
        put({ job_id: r.id, type, path, bytes: null, done: 0 });
      }
      let result;
      for (let refresh = 0; ; refresh++) {
        if (!link) throw new ApiError('protocol', `the service no longer offers ${type}`);
        try {
          const part = `${path}.part`;
          result = await ctx.clients.downloads.toPart(
            link.download_url,
            part,
            ctx.signal,
            (t, n) => ctx.progress(r.id, t, n),
            fresh,
          );
          break;
        } catch (e) {
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
      const wrong = notTheFile(type, result.contentType, result.head ?? (await head(`${path}.part`)));
      if (wrong) {
        await rm(`${path}.part`, { force: true });
        throw new ApiError('protocol', `the service sent ${wrong} instead of the ${type} file`);
      }
      const ext = extensionFor(type, result.contentType, link.download_url);
      if (extname(path).slice(1) !== ext) {
        // The response's type wins over the link's extension: record the new name first, then move the part.
        const wantedPath = place(type, ext);
        const renamed = await freeName(
          dirname(wantedPath),
          parse(wantedPath).base,
          (p) => planned.has(p) && p !== path,
        );
        put({ job_id: r.id, type, path: renamed, bytes: null, done: 0 });
        await rename(`${path}.part`, `${renamed}.part`);
        path = renamed;
      }
      const twin = await identicalOutput([...known.values()], `${path}.part`, result.bytes);
      if (twin) {
        // The same bytes under two output types (`translated` is often the MP4 itself): keep one file.
        await rm(`${path}.part`, { force: true });
        put({ job_id: r.id, type, path: twin.path, bytes: twin.bytes, done: 1 });
        continue;
      }
      // Recorded before the move, so a crash during it is recognised on the next run.
      put({ job_id: r.id, type, path, bytes: result.bytes, done: 0 });
      const final = await settle(`${path}.part`, path).catch((e: unknown) => {
        throw local(e, dirname(path ?? r.out_dir), null);
      });
      const settled: OutputRow = { job_id: r.id, type, path: final, bytes: result.bytes, done: 1 };
      // Moved under another name (the wanted one was taken meanwhile): a resume would not find it, record now.
      if (final !== path) put(settled);
      else {
        moved.push(settled);
        known.set(type, settled);
      }
    }
  } catch (e) {
    // A later output failed: what was moved into place is recorded as done all the same.
    if (moved.length > 0) ctx.store.putOutputs(moved.splice(0));
    throw e;
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

/** One of the job's finished outputs with the same length and content as `part`, if there is one. */
async function identicalOutput(
  outputs: readonly OutputRow[],
  part: string,
  bytes: number,
): Promise<OutputRow | null> {
  const same = outputs.filter((o) => o.done === 1 && o.bytes === bytes);
  if (same.length === 0) return null;
  const mine = await sha256(part);
  for (const o of same) if ((await sha256(o.path).catch(() => null)) === mine) return o;
  return null;
}

/** The service's failure message, as text a user can read (its shape is not specified). */
export function describeRemoteError(error: unknown): string {
  return serviceValueText(error) || 'the service reported that the dub failed';
}

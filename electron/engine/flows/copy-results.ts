import { constants } from 'node:fs';
import { jobStem } from '../outputs/result-stem';
import { copyFile, link, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, parse } from 'node:path';
import type { OutputType } from '../../../shared/api/common';
import { DubdeskError } from '../../../shared/contract/errors';
import { languageName } from '../../../shared/languages';
import type { JobRow, OutputRow } from '../db/jobs';
import { makeFolder } from '../files/make-folder';
import { entryAt, identityOf, NameTakenError } from '../files/own-file';
import { NO_HARD_LINKS, freeName, freeVariant, outputPath, settle } from '../outputs/naming';
import { FIRST_UPLOAD_RECHECK_MS } from './upload-once';
import type { LeasedJob, StepContext } from './context';
import { local } from './output-files';

/** A finished output still on disk as it was recorded (a result deleted or replaced since is no source). */
async function stillThere(o: OutputRow): Promise<boolean> {
  const info = await stat(o.path).catch(() => null);
  return Boolean(info?.isFile() && (o.bytes === null || info.size === o.bytes));
}

/** The newest completed dub of this content whose results are all still on disk, with them. */
async function donorOf(ctx: StepContext, r: JobRow): Promise<{ donor: JobRow; outputs: OutputRow[] } | null> {
  for (const donor of ctx.store.sameContent.completedDubsOf(r)) {
    if (donor.id === r.id) continue;
    const outputs = ctx.store.outputs.of(donor.id).filter((o) => o.done === 1);
    if (outputs.length === 0) continue;
    if ((await Promise.all(outputs.map(stillThere))).every(Boolean)) return { donor, outputs };
  }
  return null;
}

/**
 * A hard link to `src` under `target` (a copy where the volume has none), through a `.part`: never half a
 * file, never written through an entry someone put at the part's name (a link, made or copied over, would
 * land outside the folder), and what is moved into place is the file made.
 */
async function linkOrCopy(src: string, target: string): Promise<string> {
  const part = `${target}.part`;
  await rm(part, { force: true });
  try {
    await link(src, part);
  } catch (e) {
    if (!NO_HARD_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    await copyFile(src, part, constants.COPYFILE_EXCL);
  }
  const made = await entryAt(part);
  if (!made?.isFile()) throw new NameTakenError(part, 'it changed as it was made');
  return settle(part, target, identityOf(made));
}

/**
 * A job whose content another job dubs (a copy under a new name, a second identical file of a batch, a
 * watched duplicate): its results are that dub's files, hard-linked (or copied) under this job's own names
 * by the same naming rule as downloads, and nothing is sent or paid. Waits while the other job is still
 * dubbing; fails with the way forward (`--again`) when there is nothing left to copy from.
 */
export async function takeCopy(ctx: StepContext, job: LeasedJob): Promise<void> {
  const r = job.row;
  const found = await donorOf(ctx, r);
  if (!found) {
    const carrier = ctx.store.sameContent.carrierOf(r, r.id);
    if (carrier) {
      job.apply({
        type: 'await-first-upload',
        // Woken when that job ends (`wakeCopyWaiters`, in the same transaction): `runAt` is only a safety net.
        message: `waits for ${carrier.source_name}'s ${languageName(carrier.dest_lang)} dub, job #${carrier.id} (the same content: its results are linked here at no charge)`,
        runAt: Date.now() + FIRST_UPLOAD_RECHECK_MS,
      });
      return;
    }
    throw new DubdeskError(
      'not-found',
      `${r.source_name} is the same content as a dub whose results are no longer on disk (deleted or moved), or whose dub failed`,
      { remedy: 'Add it again with --again ("Dub again") to dub it once more; that is charged.' },
    );
  }
  const { donor, outputs } = found;
  const stem = jobStem(parse(r.source_name).name, r.audio_track);
  const wanted = outputs.map((o) => o.type as OutputType);
  const existing = new Map(ctx.store.outputs.of(r.id).map((o) => [o.type, o]));
  const planned = new Set([...existing.values()].map((o) => o.path));
  /** One file per donor file: two output types of the donor that share a file share it here too. */
  const made = new Map<string, string>();
  const rows: OutputRow[] = [];
  const wantedPathOf = (o: OutputRow) =>
    join(
      r.out_dir,
      outputPath(r.naming, stem, r.dest_lang, o.type as OutputType, extname(o.path).slice(1), wanted),
    );
  /** One name variant for all of the copy's files, so media and subtitles pair (see freeVariant). */
  let variant: Promise<number> | undefined;
  for (const o of outputs) {
    let target = made.get(o.path);
    if (!target) {
      const before = existing.get(o.type);
      if (before && (await sameFile(before.path, o.path))) target = before.path;
      else {
        const wantedPath = wantedPathOf(o);
        await makeFolder(dirname(wantedPath)).catch((e: unknown) => {
          throw local(e, dirname(wantedPath), null);
        });
        variant ??= freeVariant(outputs.map(wantedPathOf), (p) => planned.has(p));
        const free = await freeName(
          dirname(wantedPath),
          basename(wantedPath),
          (p) => planned.has(p),
          await variant,
        );
        planned.add(free);
        // Recorded before the file appears: a crash leaves a name this job knows, not a stray file.
        ctx.store.outputs.put({ job_id: r.id, type: o.type, path: free, bytes: null, done: 0 });
        target = await linkOrCopy(o.path, free).catch((e: unknown) => {
          throw local(e, dirname(free), o.bytes);
        });
        await ctx.store.results.recordOwnFile(target);
      }
      made.set(o.path, target);
    }
    rows.push({ job_id: r.id, type: o.type, path: target, bytes: o.bytes, done: 1 });
  }
  const main = outputs[0]?.path ?? donor.source_name;
  job.end(
    { type: 'copied', from: basename(main), fromJob: donor.id, measuredDuration: donor.measured_duration },
    () => ctx.store.outputs.putMany(rows),
  );
}

/** The same file on disk (a link made before a crash), not merely the same name. */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  if (!x || !y) return false;
  return (x.ino === y.ino && x.dev === y.dev) || (x.size === y.size && x.isFile() && y.isFile());
}

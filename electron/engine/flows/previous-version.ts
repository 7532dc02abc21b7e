import { rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { JobRow, JobStore } from '../db/jobs';
import { makeFolder } from '../files/make-folder';
import { notThroughForeignLink } from '../files/own-file';
import { KeyLock } from '../outputs/key-lock';
import { PER_SOURCE_OUTPUTS, freeVariant, withVariant } from '../outputs/naming';
import type { OutputType } from '../../../shared/api/common';

/** The folder, beside a result, where the results of an earlier dub of the same source go. */
export const PREVIOUS_FOLDER = 'previous';

/** Whether a result lies in a `previous/` folder: moved aside, no longer anybody's current result. */
export const isMovedAside = (path: string): boolean => basename(dirname(path)) === PREVIOUS_FOLDER;

/** The jobs of one source and folder move their predecessors' files one at a time (see KeyLock). */
const moving = new KeyLock();

/**
 * A later dub of a source takes the plain result names, and what earlier jobs of the same path saved in the
 * same output folder and is no longer current goes to `previous/` beside it, with its records:
 * - of other content (a re-export, a changed file): every result, whatever its language, since all of them
 *   are of the old content and none may stay beside the new source;
 * - of the same content dubbed again on purpose (`--again`, "Dub again", a duplicate dubbed again): this
 *   language's results of the same audio track; the other languages' and tracks' (named apart: `jobStem`)
 *   and the outputs shared by all languages stay current.
 * Nothing is left beside the new result as `(2)`, and nothing in `previous/` is overwritten: each earlier
 * job's files take the first number free for all of them (`Movie.es (2).mp4` beside `Movie.es (2).vtt`),
 * so the numbers count up in the order the versions were replaced. A file of another source stays put.
 */
export async function movePreviousVersions(store: JobStore, r: JobRow): Promise<void> {
  if (r.source_kind !== 'file') return;
  await moving.run(`${r.source}\0${r.out_dir}`, async () => {
    const earlier = store.outputs
      .earlierResults(r)
      .filter((o) => !isMovedAside(o.path))
      .filter((o) =>
        o.source_hash !== null && r.source_hash !== null && o.source_hash !== r.source_hash
          ? true
          : o.dest_lang === r.dest_lang &&
            o.audio_track === r.audio_track &&
            !PER_SOURCE_OUTPUTS.has(o.type as OutputType),
      );
    // Each file once (two output types may share one), with the first job that recorded it.
    const byJob = new Map<number, Set<string>>();
    const seen = new Set<string>();
    for (const o of earlier) {
      if (seen.has(o.path)) continue;
      seen.add(o.path);
      byJob.set(o.job_id, (byJob.get(o.job_id) ?? new Set()).add(o.path));
    }
    for (const paths of byJob.values()) await moveTogether(store, [...paths]);
  });
}

/** One earlier job's files into `previous/` under one number, their records following them. */
async function moveTogether(store: JobStore, paths: readonly string[]): Promise<void> {
  const present: string[] = [];
  for (const p of paths) if ((await stat(p).catch(() => null))?.isFile()) present.push(p);
  if (present.length === 0) return;
  const aside = (p: string) => join(dirname(p), PREVIOUS_FOLDER, basename(p));
  for (const folder of new Set(present.map((p) => dirname(aside(p))))) {
    await makeFolder(folder);
    // A `previous/` someone else put there as a link would carry the user's results off to their folder.
    await notThroughForeignLink(folder);
  }
  const n = await freeVariant(present.map(aside), () => false);
  for (const p of present) {
    const moved = join(dirname(aside(p)), withVariant(basename(p), n));
    await rename(p, moved);
    store.outputs.moved(p, moved);
    await store.results.recordOwnFile(moved);
  }
}

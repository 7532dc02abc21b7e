import type { BigIntStats } from 'node:fs';
import { link, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join, parse } from 'node:path';
import type { OutputType } from '../../../shared/api/common';
import type { JobOutputType } from '../../../shared/contract/jobs';
import { holdPoint } from '../files/hold-point';
import {
  entryAt,
  exactEntryAt,
  identityOf,
  NameTakenError,
  sameFile,
  type FileIdentity,
} from '../files/own-file';

const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/** A name from the service (or a URL) made safe on every OS: no separators, controls or reserved names. */
export function sanitizeName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  let s = raw.normalize('NFC').replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_');
  s = s.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (RESERVED.test(parse(s).name)) s = `_${s}`;
  if (s.length > 180) s = s.slice(0, 180);
  return s || 'dub';
}

/** Outputs that do not depend on the target language: fetched once per source, not once per dub. */
export const PER_SOURCE_OUTPUTS: ReadonlySet<OutputType> = new Set([
  'original',
  'original_mp4',
  'original_mp3',
  'original_subtitle',
  'poster',
]);

/**
 * Where an output goes, relative to the output folder, named the way a user looks for it, and never the
 * same for two output types of one dub (so nothing of a job's own ever needs a `(2)`):
 * `suffix`: `Movie.es.mp4` beside `Movie.es.vtt` (players pick the subtitles up), the source's own outputs
 * as `Movie.original.mp4`, `Movie.original-audio.mp3`, `Movie.original.vtt`, `Movie.poster.jpg`;
 * `folders`: `es/Movie.mp4` and `es/Movie.vtt`, the source's own outputs in `original/`.
 * `translated` (the service's own format) takes the plain name unless a converted twin is wanted too, and
 * `original_mp4` its own unless the original as uploaded is: then they are told apart whatever format each
 * turns out to be. A byte-identical copy is not
 * kept twice (see fetch-outputs).
 */
export function outputPath(
  naming: 'suffix' | 'folders',
  stem: string,
  destLang: string,
  type: JobOutputType,
  ext: string,
  wanted: readonly JobOutputType[],
): string {
  const tag =
    type === 'translated' && (wanted.includes('translated_mp4') || wanted.includes('translated_mp3'))
      ? ' (service format)'
      : type === 'original_mp4' && wanted.includes('original')
        ? ' (converted)'
        : '';
  if (naming === 'folders') {
    switch (type) {
      case 'translated_mp4':
      case 'translated_mp3':
      case 'translated_subtitle':
      case 'translated_subtitle_srt':
      case 'translated':
        return join(destLang, `${stem}${tag}.${ext}`);
      case 'poster':
        return join('original', `${stem}.poster.${ext}`);
      case 'original_mp3':
        return join('original', `${stem}.audio.${ext}`);
      default:
        return join('original', `${stem}${tag}.${ext}`);
    }
  }
  switch (type) {
    case 'translated_mp4':
    case 'translated_mp3':
    case 'translated_subtitle':
    case 'translated_subtitle_srt':
    case 'translated':
      return `${stem}.${destLang}${tag}.${ext}`;
    case 'poster':
      return `${stem}.poster.${ext}`;
    case 'original_mp3':
      return `${stem}.original-audio.${ext}`;
    default:
      return `${stem}.original${tag}.${ext}`;
  }
}

/** Whether any entry is at `p`: a link there (even one pointing nowhere) takes the name as a file does. */
const exists = async (p: string) => (await entryAt(p)) !== null;

/** A name's variant `n`: `Movie.es.mp4` for 1, `Movie.es (2).mp4` for 2… */
export function withVariant(fileName: string, n: number): string {
  if (n === 1) return fileName;
  const ext = extname(fileName);
  return `${fileName.slice(0, fileName.length - ext.length)} (${n})${ext}`;
}

/** Whether neither `path` nor its `.part` is on disk (both asked at once: each is a thread-pool trip). */
async function free(path: string): Promise<boolean> {
  const [file, part] = await Promise.all([exists(path), exists(`${path}.part`)]);
  return !file && !part;
}

/**
 * `Movie.es.mp4`, else `Movie.es (2).mp4`, `Movie.es (3).mp4`… never a name that is taken. `from`: the
 * variant to begin with (the one a job's other files use, see `freeVariant`).
 */
export async function freeName(
  dir: string,
  fileName: string,
  alsoTaken: (p: string) => boolean = () => false,
  from = 1,
): Promise<string> {
  for (let n = from; n < 10_000; n++) {
    const path = join(dir, withVariant(fileName, n));
    if (!alsoTaken(path) && (await free(path))) return path;
  }
  throw new Error(`no free file name for ${fileName} in ${dir}`);
}

/**
 * The smallest variant for which every one of a job's files is free (or already its own): a job's files
 * share one base name, `half.es (2).mp3` beside `half.es (2).vtt`, since players pair media and subtitles
 * by it. Picking a free name file by file would give `half.es.mp3` beside `half.es (2).vtt`.
 */
export async function freeVariant(
  paths: readonly string[],
  own: (p: string) => boolean,
  /** Names another job has claimed, though nothing is on disk yet. */
  claimed: (p: string) => boolean = () => false,
): Promise<number> {
  for (let n = 1; n < 10_000; n++) {
    const named = paths.map((p) => join(dirname(p), withVariant(basename(p), n)));
    const frees = await Promise.all(named.map(async (p) => own(p) || (!claimed(p) && (await free(p)))));
    if (frees.every(Boolean)) return n;
  }
  throw new Error(`no free file name for ${paths.map((p) => basename(p)).join(', ')}`);
}

/** Errors of a volume (or a file system) that has no hard links: copy instead. */
export const NO_HARD_LINKS: ReadonlySet<string> = new Set([
  'EPERM',
  'ENOTSUP',
  'EOPNOTSUPP',
  'EXDEV',
  'ENOSYS',
  'EMLINK',
]);

/**
 * Moves a finished `.part` into place without ever replacing a file: a hard link fails if the name is
 * taken (then the next free name is used), and only then is the `.part` removed. Where the file system
 * has no hard links, an existence check and a rename do the same, minus the atomicity.
 *
 * With `expected` (the file a download wrote), the part must be that very plain file, before and after the
 * move: a link, or another file, put at the part's name meanwhile is never moved into place (a result that
 * is a link would send whoever opens it anywhere).
 */
export async function settle(part: string, wanted: string, expected?: FileIdentity): Promise<string> {
  return (await settleAt(part, wanted, expected)).path;
}

/**
 * `settle` a download, with the look at the file in its place that made sure it is the one written: what
 * records it as a result needs no other (see `OwnResults.lookAtResult`).
 */
export async function settleWritten(
  part: string,
  wanted: string,
  expected: FileIdentity,
): Promise<{ path: string; entry: BigIntStats }> {
  const { path, entry } = await settleAt(part, wanted, expected);
  if (!entry) throw new Error(`${path} was not looked at once moved`);
  return { path, entry };
}

async function settleAt(
  part: string,
  wanted: string,
  expected: FileIdentity | undefined,
): Promise<{ path: string; entry: BigIntStats | null }> {
  if (expected) await mustBe(part, expected);
  let target = wanted;
  for (;;) {
    try {
      await link(part, target);
      const entry = expected ? await placed(target, expected) : null;
      await holdPoint('settle-linked');
      await unlink(part).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      return { path: target, entry };
    } catch (e) {
      if (e instanceof NameTakenError) throw e;
      const code = (e as NodeJS.ErrnoException).code ?? '';
      const taken = code === 'EEXIST' || (NO_HARD_LINKS.has(code) && (await exists(target)));
      if (taken) {
        const { dir, base } = parse(target);
        target = await freeName(dir, base);
        continue;
      }
      if (!NO_HARD_LINKS.has(code)) throw e;
      await rename(part, target);
      return { path: target, entry: expected ? await placed(target, expected) : null };
    }
  }
}

/** The entry at `path` is the plain file `expected` names: returned, as looked at. */
async function mustBe(path: string, expected: FileIdentity): Promise<BigIntStats> {
  const entry = await exactEntryAt(path);
  if (entry?.isFile() && sameFile(identityOf(entry), expected)) return entry;
  // Its folder went with it (moved or deleted): said as the folder's loss, which the next try mends.
  if (!entry && !(await entryAt(dirname(path))))
    throw Object.assign(new Error(`${dirname(path)} is gone`), { code: 'ENOENT', path });
  throw new NameTakenError(path, entry ? 'another entry was put in its place' : 'it is gone');
}

/** What was just moved to `target` is the file written; if not (swapped meanwhile), its name is taken away. */
async function placed(target: string, expected: FileIdentity): Promise<BigIntStats> {
  try {
    return await mustBe(target, expected);
  } catch (e) {
    await unlink(target).catch(() => {});
    throw e;
  }
}

/**
 * After a crash during `settle`: true when `path` already holds our finished download (linked but the
 * `.part` not yet removed, or moved but not yet recorded). Cleans the leftover `.part` in the first case.
 */
export async function alreadySettled(path: string, bytes: number): Promise<boolean> {
  const [file, part] = await Promise.all([entryAt(path), entryAt(`${path}.part`)]);
  if (!file?.isFile()) return false;
  if (part?.isFile() && sameFile(identityOf(file), identityOf(part))) {
    await rm(`${path}.part`, { force: true });
    return true;
  }
  return !part && file.size === bytes;
}

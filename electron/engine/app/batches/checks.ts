import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { BatchRequest } from '../../../../shared/contract/batches';
import { checkDefaultAudio } from '../../../../shared/contract/deliver';
import { DubdeskError } from '../../../../shared/contract/errors';
import { AUTO, LEGACY_CODES, codeForName, languageName } from '../../../../shared/languages';
import type { NewJob } from '../../db/jobs';
import { makeFolder } from '../../files/make-folder';

/** Checks the languages against the live list (never `auto` as a target). */
export function checkLanguages(
  req: Pick<BatchRequest, 'to' | 'from' | 'api'>,
  liveCodes: readonly string[],
): void {
  const legacy = req.api === 'legacy';
  const allowed = legacy ? LEGACY_CODES : liveCodes;
  const where = legacy ? 'the legacy API (it takes 17 languages)' : 'the service';
  const remedy = legacy
    ? 'Pick one of the legacy languages, or use the v2 API.'
    : 'Pick one from the language list.';
  for (const code of req.to) {
    if (code === AUTO)
      throw new DubdeskError('bad-language', "'auto' is a source language only; name the target languages", {
        remedy: 'Pick the languages to dub into, e.g. es and fr.',
        field: 'to',
      });
    if (!allowed.includes(code)) {
      const named = codeForName(code);
      throw new DubdeskError('bad-language', `unknown target language '${code}' for ${where}`, {
        remedy:
          named && allowed.includes(named)
            ? `Languages go by their code: ${named} for ${languageName(named)}.`
            : remedy,
        field: 'to',
      });
    }
  }
  if (req.from !== AUTO && !allowed.includes(req.from)) {
    const named = codeForName(req.from);
    throw new DubdeskError('bad-language', `unknown source language '${req.from}' for ${where}`, {
      remedy:
        named && allowed.includes(named)
          ? `Languages go by their code: ${named} for ${languageName(named)}.`
          : `${remedy} Or let the service detect it (auto).`,
      field: 'from',
    });
  }
}

/** The package's default sound is one it has (checkDefaultAudio); a package is made with ffmpeg, which must be found. */
export function checkDelivery(
  req: Pick<BatchRequest, 'to' | 'package' | 'defaultAudio'>,
  ffmpegFound: boolean | null,
): void {
  checkDefaultAudio(req.to, req.defaultAudio);
  if (req.package !== 'none' && ffmpegFound === false)
    throw new DubdeskError(
      'config',
      `a ${req.package.toUpperCase()} with every language needs ffmpeg, and none was found`,
      {
        remedy: 'Install ffmpeg (or set DUBDESK_FFMPEG to one), or leave the package out (--package none).',
        field: 'package',
      },
    );
}

/** The nearest folder of `path` that exists (itself included), or the error that stops us there. */
async function existingAncestor(path: string): Promise<{ dir: string } | { file: string }> {
  let p = path;
  for (;;) {
    const info = await stat(p).catch(() => null);
    if (info?.isDirectory()) return { dir: p };
    if (info) return { file: p };
    const up = dirname(p);
    if (up === p) return { dir: p };
    p = up;
  }
}

/**
 * An output folder must be usable before anything is sent (and paid for): creatable where it does not exist
 * yet, never a file, and writable.
 */
export async function checkOutputFolder(dir: string, field?: string, create = false): Promise<void> {
  const found = await existingAncestor(dir);
  if ('file' in found)
    throw new DubdeskError('disk', `cannot save results in ${dir}: ${found.file} is a file, not a folder`, {
      remedy: 'Choose another output folder.',
      ...(field ? { field } : {}),
    });
  const ok = await access(found.dir, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!ok)
    throw new DubdeskError('permission', `cannot save results in ${dir}: ${found.dir} is not writable`, {
      remedy: 'Choose a folder you can write to.',
      ...(field ? { field } : {}),
    });
  // Writable is not always creatable (a read-only mount's mount point, /proc): adding makes it for real.
  if (create && found.dir !== resolve(dir))
    await makeFolder(dir).catch((e: NodeJS.ErrnoException) => {
      throw new DubdeskError('permission', `cannot create the folder ${dir} (${e.code ?? e.message})`, {
        remedy: 'Choose a folder you can write to.',
        ...(field ? { field } : {}),
      });
    });
}

/** Folders the batch would write to, each checked before anything is sent. */
export async function checkOutputFolders(
  jobs: readonly NewJob[],
  explicit: boolean,
  create = false,
): Promise<void> {
  for (const dir of new Set(jobs.map((j) => j.out_dir))) {
    try {
      await checkOutputFolder(dir, explicit ? 'outDir' : undefined, create);
    } catch (e) {
      if (e instanceof DubdeskError && !explicit)
        throw new DubdeskError(e.code, `${e.message} (results go beside their source by default)`, {
          remedy: 'Choose an output folder you can write to.',
          field: 'outDir',
        });
      throw e;
    }
  }
}

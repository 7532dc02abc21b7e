import { readdir, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { LEGACY_FILE_TYPE } from '../../shared/api/legacy';
import { estimateCredits } from '../../shared/credits';
import type { ApiGeneration } from '../../shared/domain';
import type { AddRequest } from '../../shared/requests';
import { AUTO, LEGACY_CODES } from '../../shared/languages';
import { nameFromUrl } from '../../shared/url-name';
import type { NewJob } from './db/jobs';
import { UsageError } from './errors';
import { InputError, MEDIA_EXTENSIONS, probeFile, type ProbedFile } from './media/probe';

export const V2_MAX_UPLOAD_BYTES = 1024 ** 3;

export type { AddRequest };

export interface Plan {
  jobs: NewJob[];
  /** Inputs refused, each with a message naming it and the fix; the rest of the batch goes ahead. */
  rejected: InputError[];
  estimate: { credits: number; unknown: number };
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** Checks the languages against the live list (never `auto` as a target); throws UsageError when wrong. */
export function checkLanguages(
  req: Pick<AddRequest, 'to' | 'from' | 'api'>,
  liveCodes: readonly string[],
): void {
  if (req.to.length === 0) throw new UsageError('name at least one target language, e.g. --to es,fr');
  const allowed = req.api === 'legacy' ? LEGACY_CODES : liveCodes;
  const where =
    req.api === 'legacy'
      ? 'the legacy API (17 languages; see `dubdesk langs --legacy`)'
      : 'the service (see `dubdesk langs`)';
  for (const code of req.to) {
    if (code === AUTO)
      throw new UsageError("'auto' is a source language only; name the target languages, e.g. --to es,fr");
    if (!allowed.includes(code)) throw new UsageError(`unknown target language '${code}' for ${where}`);
  }
  if (req.from !== AUTO && !allowed.includes(req.from))
    throw new UsageError(`unknown source language '${req.from}' for ${where}; or use --from auto`);
}

async function expand(input: string): Promise<string[] | InputError> {
  const path = resolve(input);
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) return [path];
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile() && MEDIA_EXTENSIONS.has(extname(entry.name).toLowerCase())) found.push(p);
    }
  };
  await walk(path);
  if (found.length === 0) return new InputError(path, `${path}: no video or audio files in this folder.`);
  return found.sort();
}

function checkForApi(file: ProbedFile, api: ApiGeneration): void {
  if (api === 'legacy' && file.mime !== LEGACY_FILE_TYPE) {
    throw new InputError(
      file.path,
      `${file.path}: the legacy API takes only MP4 video (this is ${file.mime}). Use --api v2, or convert it to MP4.`,
    );
  }
  if (api === 'v2' && file.bytes > V2_MAX_UPLOAD_BYTES) {
    const gb = (file.bytes / 1024 ** 3).toFixed(2);
    throw new InputError(
      file.path,
      `${file.path}: ${gb} GB is over the 1 GB upload limit of the v2 API. Split or compress it first.`,
    );
  }
}

/** Probes every input (in parallel, a few at a time) and makes one job per source and target language. */
export async function planJobs(req: AddRequest, cwd = process.cwd()): Promise<Plan> {
  const rejected: InputError[] = [];
  const sources: (ProbedFile | { url: string })[] = [];
  const paths: string[] = [];
  for (const input of req.inputs) {
    if (isUrl(input)) {
      if (req.api !== 'v2')
        rejected.push(
          new InputError(
            input,
            `${input}: URL sources need the v2 API (--api v2); v1 and legacy upload files only.`,
          ),
        );
      else sources.push({ url: input });
      continue;
    }
    const expanded = await expand(input);
    if (expanded instanceof InputError) rejected.push(expanded);
    else paths.push(...expanded);
  }
  const unique = [...new Set(paths)];
  const probed = await mapLimit(unique, 8, async (p) => {
    try {
      const file = await probeFile(p);
      checkForApi(file, req.api);
      return file;
    } catch (e) {
      if (e instanceof InputError) return e;
      throw e;
    }
  });
  for (const r of probed) {
    if (r instanceof InputError) rejected.push(r);
    else sources.push(r);
  }

  const jobs: NewJob[] = [];
  for (const s of sources) {
    for (const lang of req.to) {
      const common = {
        dest_lang: lang,
        source_lang: req.from,
        api: req.api,
        studio: req.studio ? 1 : 0,
        outputs_wanted: JSON.stringify(req.outputs),
      };
      if ('url' in s) {
        const name = nameFromUrl(s.url);
        jobs.push({
          ...common,
          source: s.url,
          source_kind: 'url',
          source_name: name,
          source_type: null,
          source_bytes: null,
          duration: null,
          out_dir: resolve(req.outDir ?? cwd),
        });
      } else {
        jobs.push({
          ...common,
          source: s.path,
          source_kind: 'file',
          source_name: s.name,
          source_type: s.mime,
          source_bytes: s.bytes,
          duration: s.durationSeconds,
          out_dir: resolve(req.outDir ?? dirname(s.path)),
        });
      }
    }
  }
  const estimate = estimateCredits(
    jobs.map((j) => ({ durationSeconds: j.duration, studio: j.studio === 1 })),
  );
  return { jobs, rejected, estimate };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

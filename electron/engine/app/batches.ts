import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { makeFolder } from '../outputs/make-folder';
import { dirname, extname, join, resolve } from 'node:path';
import { LEGACY_FILE_TYPE } from '../../../shared/api/legacy';
import { creditsFor } from '../../../shared/credits';
import type { BatchRequest, DoneBefore, FileEstimate } from '../../../shared/contract/batches';
import { DubdeskError, type ContractError } from '../../../shared/contract/errors';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { AUTO, LEGACY_CODES, codeForName, languageName } from '../../../shared/languages';
import { nameFromUrl } from '../../../shared/url-name';
import type { JobRow, JobStore, NewJob } from '../db/jobs';
import { InputError, MEDIA_EXTENSIONS, probeMany, type ProbedFile } from '../media/probe';
import { absolutePath } from './paths';
import { takesPart } from './upload-once';

export const V2_MAX_UPLOAD_BYTES = 1024 ** 3;

const isUrl = (s: string) => /^https?:\/\//i.test(s);
/** `ftp://…`, `s3://…`: a link of a kind the service cannot fetch (not a file named like one). */
const otherLink = (s: string) => /^[a-z][a-z0-9+.-]+:\/\//i.test(s) && !isUrl(s);

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

/** Which of these paths are files Dubdesk itself wrote (results of its jobs). */
export type OwnOutputs = (paths: readonly string[]) => ReadonlySet<string>;

/**
 * A named file, or the media files of a named folder and its subfolders. A folder's files that are
 * Dubdesk's own results (`Movie.es.mp4` beside `Movie.mp4`) are left out: dubbing a dub again is never
 * what "add this folder" means, and it would be paid for. A result named on its own is taken.
 */
async function expand(
  input: string,
  cwd: string | null,
  ownOutputs?: OwnOutputs,
): Promise<string[] | InputError> {
  let path: string;
  try {
    path = absolutePath(input, cwd, 'inputs', 'file or folder');
  } catch (e) {
    const why = e as DubdeskError;
    return new InputError(input, 'bad-request', `${input}: not a full path.`, why.remedy);
  }
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) return [path];
  const found: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile() && MEDIA_EXTENSIONS.has(extname(entry.name).toLowerCase())) found.push(p);
    }
  };
  await walk(path);
  const own = ownOutputs?.(found) ?? new Set<string>();
  const sources = found.filter((p) => !own.has(p));
  if (sources.length === 0)
    return new InputError(
      path,
      'not-media',
      own.size > 0
        ? `${path}: the only video or audio files in this folder are Dubdesk's own results.`
        : `${path}: no video or audio files in this folder.`,
      own.size > 0
        ? 'Name a result itself to dub it again, or add another folder.'
        : 'Add the files themselves, or another folder.',
    );
  return sources.sort();
}

function checkForApi(file: ProbedFile, api: ApiGeneration): void {
  if (api === 'legacy' && file.mime !== LEGACY_FILE_TYPE)
    throw new InputError(
      file.path,
      'not-media',
      `${file.path}: the legacy API takes only MP4 video (this is ${file.mime}).`,
      'Use the v2 API, or convert it to MP4.',
    );
  if (api === 'v2' && file.bytes > V2_MAX_UPLOAD_BYTES) {
    const gb = (file.bytes / 1024 ** 3).toFixed(2);
    throw new InputError(
      file.path,
      'too-large',
      `${file.path}: ${gb} GB is over the 1 GB upload limit of the v2 API.`,
      'Split or compress it first.',
    );
  }
}

export interface Planned {
  files: FileEstimate[];
  jobs: NewJob[];
  refused: { input: string; error: ContractError }[];
}

/** Probes every input (a few at a time) and makes one job per good source and target language. */
export async function planBatch(
  req: BatchRequest,
  opts: {
    service: string;
    /** Where relative paths start: the CLI's working folder; null for a face that has none. */
    cwd: string | null;
    watchFolderId?: number | null;
    ownOutputs?: OwnOutputs;
  },
): Promise<Planned> {
  const { cwd } = opts;
  const files: FileEstimate[] = [];
  const refused: Planned['refused'] = [];
  const refuse = (input: string, e: InputError) => {
    refused.push({ input, error: e.toJSON() });
    files.push({
      input,
      name: input,
      kind: null,
      durationSeconds: null,
      bytes: null,
      creditsPerLanguage: null,
      problem: e.toJSON(),
    });
  };
  const sources: (ProbedFile | { url: string })[] = [];
  const paths: string[] = [];
  for (const input of req.inputs) {
    if (otherLink(input)) {
      refuse(
        input,
        new InputError(
          input,
          'bad-request',
          `${input}: only http:// and https:// links can be dubbed.`,
          'Download it first and add the file, or give its http(s) address.',
        ),
      );
      continue;
    }
    if (isUrl(input)) {
      if (req.api !== 'v2')
        refuse(
          input,
          new InputError(
            input,
            'bad-request',
            `${input}: URL sources need the v2 API; v1 and legacy upload files only.`,
            'Use the v2 API for URLs.',
          ),
        );
      else if (!req.outDir && cwd === null)
        refuse(
          input,
          new InputError(
            input,
            'bad-request',
            `${input}: a link has no folder of its own for its results.`,
            'Choose an output folder.',
          ),
        );
      else {
        sources.push({ url: input });
        files.push({
          input,
          name: nameFromUrl(input),
          kind: 'url',
          durationSeconds: null,
          bytes: null,
          creditsPerLanguage: null,
          problem: null,
        });
      }
      continue;
    }
    const expanded = await expand(input, cwd, opts.ownOutputs);
    if (expanded instanceof InputError) refuse(input, expanded);
    else paths.push(...expanded);
  }
  const probed = (await probeMany([...new Set(paths)])).map((r) => {
    if (r instanceof InputError) return r;
    try {
      checkForApi(r, req.api);
      return r;
    } catch (e) {
      if (e instanceof InputError) return e;
      throw e;
    }
  });
  for (const r of probed) {
    if (r instanceof InputError) refuse(r.source, r);
    else {
      sources.push(r);
      files.push({
        input: r.path,
        name: r.name,
        kind: r.kind,
        durationSeconds: r.durationSeconds,
        bytes: r.bytes,
        creditsPerLanguage: creditsFor(r.durationSeconds, req.studio),
        problem: null,
      });
    }
  }

  const outDir = req.outDir ? absolutePath(req.outDir, cwd, 'outDir') : null;
  const common = {
    source_lang: req.from,
    api: req.api,
    studio: req.studio ? 1 : 0,
    outputs_wanted: JSON.stringify(req.outputs),
    naming: req.naming,
    service: opts.service,
    watch_folder_id: opts.watchFolderId ?? null,
  };
  // A link's results go to the chosen folder, else (CLI) the working folder; links without either were refused.
  const linkOut = outDir ?? cwd;
  const jobs: NewJob[] = [];
  for (const s of sources) {
    for (const lang of req.to) {
      if ('url' in s) {
        if (linkOut === null) continue;
        jobs.push({
          ...common,
          dest_lang: lang,
          source: s.url,
          source_kind: 'url',
          source_name: nameFromUrl(s.url),
          source_type: null,
          source_bytes: null,
          source_mtime: null,
          duration: null,
          out_dir: linkOut,
          upload_once: 0,
        });
      } else {
        jobs.push({
          ...common,
          dest_lang: lang,
          source: s.path,
          source_kind: 'file',
          source_name: s.name,
          source_type: s.mime,
          source_bytes: s.bytes,
          source_mtime: s.mtimeMs,
          duration: s.durationSeconds,
          out_dir: outDir ?? dirname(s.path),
          upload_once: takesPart(req.uploadOnce, req.api, s.bytes, req.to.length) ? 1 : 0,
        });
      }
    }
  }
  return { files, jobs, refused };
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

/** Where each planned job stands against the queue: new, already queued, failed before, or already dubbed. */
export interface Sorted {
  fresh: NewJob[];
  queued: number[];
  failed: { id: number; job: NewJob }[];
  done: DoneBefore[];
}

/** The same dub: same source content, target, source language and quality (where it goes does not matter). */
function sameDub(row: JobRow, job: NewJob): boolean {
  return (
    row.source_lang === job.source_lang &&
    row.studio === job.studio &&
    row.source_bytes === job.source_bytes &&
    (job.source_kind === 'url' || row.source_mtime === null || row.source_mtime === job.source_mtime)
  );
}

export function sortAgainstQueue(store: JobStore, jobs: readonly NewJob[], again: boolean): Sorted {
  const out: Sorted = { fresh: [], queued: [], failed: [], done: [] };
  // Two queries for the whole batch, not two per job: 10,000 jobs are 2,000 sources.
  const sources = [...new Set(jobs.map((j) => j.source))];
  const key = (source: string, lang: string) => `${lang}\u0000${source}`;
  const live = new Map(store.liveOf(sources).map((r) => [key(r.source, r.dest_lang), r]));
  const completed = new Map<string, JobRow[]>();
  if (!again)
    for (const r of store.completedOf(sources)) {
      const k = key(r.source, r.dest_lang);
      const list = completed.get(k);
      if (list) list.push(r);
      else completed.set(k, [r]);
    }
  for (const job of jobs) {
    const k = key(job.source, job.dest_lang);
    const liveJob = live.get(k);
    if (liveJob) {
      if (liveJob.state === 'failed') out.failed.push({ id: liveJob.id, job });
      else out.queued.push(liveJob.id);
      continue;
    }
    const before = completed.get(k)?.find((r) => sameDub(r, job));
    if (before) {
      out.done.push({
        jobId: before.id,
        source: job.source,
        destLang: job.dest_lang,
        outputs: store
          .outputs(before.id)
          .filter((o) => o.done)
          .map((o) => o.path),
      });
      continue;
    }
    out.fresh.push(job);
  }
  return out;
}

export function creditsOf(jobs: readonly Pick<NewJob, 'duration' | 'studio'>[]): {
  credits: number;
  unknown: number;
} {
  let credits = 0;
  let unknown = 0;
  for (const j of jobs) {
    if (j.duration === null) unknown++;
    else credits += creditsFor(j.duration, j.studio === 1);
  }
  return { credits, unknown };
}

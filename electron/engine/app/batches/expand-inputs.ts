import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { LEGACY_FILE_TYPE } from '../../../../shared/api/legacy';
import type { BatchRequest, FileEstimate } from '../../../../shared/contract/batches';
import type { ContractError, DubdeskError } from '../../../../shared/contract/errors';
import type { ApiGeneration } from '../../../../shared/contract/jobs';
import { creditsFor } from '../../../../shared/credits';
import { nameFromUrl } from '../../../../shared/url-name';
import {
  InputError,
  MEDIA_EXTENSIONS,
  probeMany,
  type ProbedFile,
  type ProbeOptions,
} from '../../media/probe';
import { absolutePath } from '../paths';
import { eachInSlices, lookInChunks, TimeSlices } from '../time-slices';

const isUrl = (s: string) => /^https?:\/\//i.test(s);
/** `ftp://…`, `s3://…`: a link of a kind the service cannot fetch (not a file named like one). */
const otherLink = (s: string) => /^[a-z][a-z0-9+.-]+:\/\//i.test(s) && !isUrl(s);

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
  slices: TimeSlices,
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
  // A folder of 20,000 files is one listing: its entries are looked at in slices, subfolders after.
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const subfolders: string[] = [];
    await eachInSlices(entries, slices, (entry) => {
      if (entry.name.startsWith('.')) return;
      const p = join(dir, entry.name);
      if (entry.isDirectory()) subfolders.push(p);
      else if (entry.isFile() && MEDIA_EXTENSIONS.has(extname(entry.name).toLowerCase())) found.push(p);
    });
    for (const sub of subfolders) await walk(sub);
  };
  await walk(path);
  const own = new Set(ownOutputs ? await lookInChunks(found, slices, (c) => [...ownOutputs(c)]) : []);
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
  if (api === 'legacy' && file.durationSeconds === null)
    throw new InputError(
      file.path,
      'not-media',
      `${file.path}: the legacy API needs the video's length, and this file does not say it.`,
      'Use the v2 API, or re-export it as a whole MP4.',
    );
}

/** A source a batch dubs: a probed file, or a link the service fetches itself. */
export type Source = ProbedFile | { url: string };

export interface ExpandedInputs {
  /** Every input as the estimate shows it, refused ones with their problem. */
  files: FileEstimate[];
  sources: Source[];
  refused: { input: string; error: ContractError }[];
}

/** Why a link cannot be dubbed in this batch, if it cannot. */
function linkProblem(input: string, req: BatchRequest, cwd: string | null): InputError | null {
  if (otherLink(input))
    return new InputError(
      input,
      'bad-request',
      `${input}: only http:// and https:// links can be dubbed.`,
      'Download it first and add the file, or give its http(s) address.',
    );
  if (req.api !== 'v2')
    return new InputError(
      input,
      'bad-request',
      `${input}: URL sources need the v2 API; v1 and legacy upload files only.`,
      'Use the v2 API for URLs.',
    );
  if (!req.outDir && cwd === null)
    return new InputError(
      input,
      'bad-request',
      `${input}: a link has no folder of its own for its results.`,
      'Choose an output folder.',
    );
  return null;
}

/**
 * The inputs as sources: links taken as they are, folders expanded to their media files, every file
 * probed (a few at a time) and checked against the API generation. What cannot be dubbed is refused,
 * saying why.
 */
export async function expandInputs(
  req: BatchRequest,
  cwd: string | null,
  ownOutputs?: OwnOutputs,
  probe: ProbeOptions = {},
  slices = new TimeSlices(),
): Promise<ExpandedInputs> {
  const out: ExpandedInputs = { files: [], sources: [], refused: [] };
  const refuse = (input: string, e: InputError) => {
    out.refused.push({ input, error: e.toJSON() });
    out.files.push({
      input,
      name: input,
      kind: null,
      durationSeconds: null,
      bytes: null,
      creditsPerLanguage: null,
      credits: null,
      free: [],
      problem: e.toJSON(),
    });
  };
  const paths: string[] = [];
  for (const input of req.inputs) {
    if (otherLink(input) || isUrl(input)) {
      const problem = linkProblem(input, req, cwd);
      if (problem) refuse(input, problem);
      else {
        out.sources.push({ url: input });
        out.files.push({
          input,
          name: nameFromUrl(input),
          kind: 'url',
          durationSeconds: null,
          bytes: null,
          creditsPerLanguage: null,
          credits: null,
          free: [],
          problem: null,
        });
      }
      continue;
    }
    const expanded = await expand(input, cwd, slices, ownOutputs);
    if (expanded instanceof InputError) refuse(input, expanded);
    else paths.push(...expanded);
  }
  const probed = await probeMany([...new Set(paths)], undefined, probe);
  await eachInSlices(probed, slices, (r) => {
    const checked = r instanceof InputError ? r : checkedForApi(r, req.api);
    if (checked instanceof InputError) refuse(checked.source, checked);
    else {
      out.sources.push(checked);
      const seconds = checked.durationSeconds;
      const perLanguage = seconds === null ? null : creditsFor(seconds, req.studio);
      out.files.push({
        input: checked.path,
        name: checked.name,
        kind: checked.kind,
        durationSeconds: checked.durationSeconds,
        bytes: checked.bytes,
        creditsPerLanguage: perLanguage,
        credits: perLanguage === null ? null : perLanguage * req.to.length,
        free: [],
        problem: null,
      });
    }
  });
  return out;
}

function checkedForApi(file: ProbedFile, api: ApiGeneration): ProbedFile | InputError {
  try {
    checkForApi(file, api);
    return file;
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
}

import { createHash } from 'node:crypto';
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import type * as FileType from 'file-type';
import { basename } from 'node:path';
import { z } from 'zod';
import { DubdeskError, type ErrorCode } from '../../../shared/contract/errors';
import { mp3Duration, wavDuration } from './header-duration';
import { LONGER_TRACK_SLACK_S, mp4MovieDuration, type ReadAt } from './mp4-duration';
import { mapInTurns } from '../files/in-turns';
import type { PlanStreams } from './ffmpeg/streams';
import { planStreamsAt } from './in-process/plan-streams';
import { mediaTools } from '../../media-tools/locate';
import { runTool } from '../../media-tools/run';

/** Bad input: the message names the file, the remedy says what to do. Never a stack trace for the user. */
export class InputError extends DubdeskError {
  constructor(
    readonly source: string,
    code: ErrorCode,
    message: string,
    remedy?: string,
  ) {
    super(code, message, remedy ? { remedy } : {});
    this.name = 'InputError';
  }
}

export interface ProbedFile {
  path: string;
  name: string;
  bytes: number;
  /** From the file's bytes, not its extension. */
  mime: string;
  kind: 'video' | 'audio';
  /** Null only when asked for (`lengthUnknown: 'allow'`): real media whose length it does not say. */
  durationSeconds: number | null;
  /** With `bytes`, tells an unchanged file from a new export under the same name. */
  mtimeMs: number;
  /** The SHA-256 of its bytes, when asked (`hashWhole`) and the probe's one read took the whole file. */
  sha256?: string;
  /**
   * What the send plan reads of a video's streams, when asked (`streams`) and its container is read in this
   * process through the probe's open file (MP4 and its kin); null where only ffprobe can tell.
   */
  streams?: PlanStreams | null;
}

/** The longest an ffprobe may take to say a file's length. */
const PROBE_TIMEOUT_MS = 60_000;
/** One read of this much from the start of each file answers type and length for the common formats. */
const HEAD_BYTES = 64 * 1024;
/**
 * First-read buffers, taken again once their probe ended (only the bytes a read filled are ever looked
 * at): a new one per file made the garbage collector a fifth of probing 2,000 files.
 */
const spareHeads: Buffer[] = [];
const SPARE_HEADS = 64;

/**
 * The file operations of a probe, on a plain descriptor: a `FileHandle` per file (its object, its promises,
 * its close on collection) made the four operations of each probe cost about half as much again. Each
 * calls `node:fs` as it is at the call (a test counting the opens wraps it).
 */
const done =
  <T>(resolve: (v: T) => void, reject: (e: Error) => void) =>
  (e: Error | null, v: T) =>
    e ? reject(e) : resolve(v);
const openFd = (path: string, flags: number) =>
  new Promise<number>((res, rej) => open(path, flags, done(res, rej)));
const fstatFd = (fd: number) => new Promise<Stats>((res, rej) => fstat(fd, done(res, rej)));
const readFd = (fd: number, buf: Buffer, offset: number, length: number, position: number) =>
  new Promise<number>((res, rej) => read(fd, buf, offset, length, position, done(res, rej)));
const closeFd = (fd: number) => new Promise<void>((res, rej) => close(fd, (e) => (e ? rej(e) : res())));

/** A reader that serves what the first read got from memory and reads the rest from the open file. */
function readerOf(fd: number, head: Buffer): ReadAt {
  return async (position, length) => {
    if (position + length <= head.length) return head.subarray(position, position + length);
    const buf = Buffer.alloc(length);
    const bytesRead = await readFd(fd, buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  };
}

/**
 * Duration from the header where it says it exactly (MP4/MOV movie header, MP3 Xing/Info, PCM WAV); else
 * music-metadata; Dubdesk's ffprobe only when the parsers cannot tell (none found: unknown).
 */
async function durationOf(
  path: string,
  mime: string,
  fd: number,
  head: Buffer,
  size: number,
): Promise<number | null> {
  if (/^(video|audio)\/(mp4|quicktime|x-m4v|x-m4a)$/.test(mime)) {
    const movie = await mp4MovieDuration(readerOf(fd, head), size).catch(() => null);
    if (movie) return movie;
  }
  const fromHeader = mime === 'audio/mpeg' ? mp3Duration(head) : /wav/.test(mime) ? wavDuration(head) : null;
  if (fromHeader) return fromHeader;
  // Loaded when a file is probed: a command that probes none (status, pause…) starts without them.
  const { parseFile } = await import('music-metadata');
  const meta = await parseFile(path, { duration: true, skipCovers: true }).catch(() => null);
  const d = meta?.format.duration;
  if (d && Number.isFinite(d) && d > 0) return d;
  // Dubdesk's own ffprobe first (an app started from Finder has no PATH), then the PATH's: a build that
  // crashes on a format (the shipped one does on MPEG-TS on some machines) is not the last word.
  const { tools } = await mediaTools();
  for (const ffprobe of new Set([tools?.ffprobe ?? 'ffprobe', 'ffprobe'])) {
    const probed = await runTool(
      ffprobe,
      ['-v', 'error', '-show_entries', 'format=duration:stream=duration', '-of', 'json', path],
      { timeoutMs: PROBE_TIMEOUT_MS },
    ).catch(() => null);
    const seconds = probed ? longestOf(probed.stdout) : null;
    if (seconds !== null) return seconds;
  }
  return null;
}

const Probed = z.object({
  format: z.object({ duration: z.coerce.number().optional() }).optional(),
  streams: z.array(z.object({ duration: z.coerce.number().optional() })).optional(),
});

/** ffprobe's container duration, or its longest stream's when that is longer by more than the slack. */
function longestOf(json: string): number | null {
  let parsed: z.infer<typeof Probed>;
  try {
    parsed = Probed.parse(JSON.parse(json));
  } catch {
    return null;
  }
  const sane = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? n : null);
  const container = sane(parsed.format?.duration);
  const streams = (parsed.streams ?? []).map((st) => sane(st.duration) ?? 0);
  const longest = streams.length ? Math.max(...streams) : 0;
  if (container === null) return longest > 0 ? longest : null;
  return longest > container + LONGER_TRACK_SLACK_S ? longest : container;
}

/** Opened once, never blocking (a FIFO in a file's place would otherwise hang until a writer appears). */
async function openForProbe(path: string): Promise<number> {
  return openFd(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT')
      throw new InputError(
        path,
        'not-found',
        `${path}: no such file.`,
        'Check the path (quote names with spaces).',
      );
    if (e.code === 'EACCES' || e.code === 'EPERM')
      throw new InputError(
        path,
        'permission',
        `${path}: permission denied.`,
        'Make the file readable, or copy it somewhere readable.',
      );
    throw new InputError(path, 'permission', `${path}: cannot be read (${e.code ?? e.message}).`);
  });
}

/**
 * What to make of real media whose length cannot be read (a WebM recorded in a browser or written through a
 * pipe says none): refused (damaged or still being written, as far as anyone can tell), or allowed with an
 * unknown length (a watched file, settled, that then waits for approval: its cost is unknown).
 */
export interface ProbeOptions {
  lengthUnknown?: 'refuse' | 'allow';
  /** A file the one read took whole is hashed from that read: identifying it need not read it again. */
  hashWhole?: boolean;
  /** A video's streams are read while it is open (`ProbedFile.streams`): the send plan need not open it. */
  streams?: boolean;
}

/**
 * file-type, loaded by the first probe (a command that probes none starts without it), then kept: an
 * `import()` per file went through the module loader 2,000 times for a folder.
 */
let fileTypeModule: Promise<typeof FileType> | undefined;
const fileType = () => (fileTypeModule ??= import('file-type'));

/** Type from the bytes and duration from the header: one open and, for the common formats, one read. */
export async function probeFile(path: string, opts: ProbeOptions = {}): Promise<ProbedFile> {
  const fd = await openForProbe(path);
  const head = spareHeads.pop() ?? Buffer.allocUnsafe(HEAD_BYTES);
  try {
    const info = await fstatFd(fd);
    if (!info.isFile())
      throw new InputError(path, 'not-media', `${path}: not a regular file.`, 'Name a video or audio file.');
    if (info.size === 0)
      throw new InputError(
        path,
        'not-media',
        `${path}: the file is empty (0 bytes).`,
        'Pick the finished export, not a placeholder.',
      );
    const bytesRead = await readFd(fd, head, 0, Math.min(info.size, HEAD_BYTES), 0);
    const first = head.subarray(0, bytesRead);
    // A header past the first read (a long ID3 tag with cover art): file-type reads on from the file.
    const { fileTypeFromBuffer, fileTypeFromFile } = await fileType();
    let type = await fileTypeFromBuffer(first).catch(() => undefined);
    if (!type && info.size > first.length) type = await fileTypeFromFile(path).catch(() => undefined);
    if (!type || !/^(video|audio)\//.test(type.mime)) {
      const seen = type ? `its bytes are ${type.mime}` : 'its bytes are not a known media format';
      throw new InputError(
        path,
        'not-media',
        `${path}: not a video or audio file (${seen}, whatever its extension says).`,
        'Export it as MP4, MOV, MP3 or WAV.',
      );
    }
    const duration = await durationOf(path, type.mime, fd, first, info.size);
    if (duration === null && opts.lengthUnknown !== 'allow') {
      throw new InputError(
        path,
        'not-media',
        `${path}: cannot read its duration; the file may be damaged or still being written.`,
        'Re-export it and try again.',
      );
    }
    const mime = normalizeMime(type.mime);
    const streams =
      opts.streams && type.mime.startsWith('video/')
        ? await planStreamsAt(readerOf(fd, first), info.size, mime)
        : undefined;
    return {
      path,
      name: basename(path),
      bytes: info.size,
      mime,
      kind: type.mime.startsWith('video/') ? 'video' : 'audio',
      durationSeconds: duration,
      mtimeMs: Math.round(info.mtimeMs),
      ...(opts.hashWhole && bytesRead === info.size
        ? { sha256: createHash('sha256').update(first).digest('hex') }
        : {}),
      ...(streams !== undefined ? { streams } : {}),
    };
  } finally {
    if (spareHeads.length < SPARE_HEADS) spareHeads.push(head);
    await closeFd(fd);
  }
}

/**
 * Probes many files, in the order given, up to `limit` at once: each probe is a few short file operations,
 * so keeping the thread pool's queue full (not four or eight at a time) is what makes 2,000 files quick.
 */
export async function probeMany(
  paths: readonly string[],
  limit = 32,
  opts: ProbeOptions = {},
): Promise<(ProbedFile | InputError)[]> {
  return mapInTurns(paths, limit, (p) =>
    probeFile(p, opts).catch((e: unknown) => {
      if (e instanceof InputError) return e;
      throw e;
    }),
  );
}

/** file-type's names for a few formats differ from what services expect in a MIME type field. */
function normalizeMime(mime: string): string {
  if (mime === 'audio/vnd.wave' || mime === 'audio/wave') return 'audio/wav';
  if (mime === 'audio/x-m4a') return 'audio/mp4';
  return mime;
}

export const MEDIA_EXTENSIONS = new Set([
  '.mp4',
  '.m4v',
  '.mov',
  '.mkv',
  '.webm',
  '.avi',
  '.mpg',
  '.mpeg',
  '.wmv',
  '.flv',
  '.ts',
  '.mts',
  '.m2ts',
  '.3gp',
  '.mp3',
  '.wav',
  '.m4a',
  '.aac',
  '.flac',
  '.ogg',
  '.opus',
  '.wma',
  '.aiff',
  '.aif',
]);

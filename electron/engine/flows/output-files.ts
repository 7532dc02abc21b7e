import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OutputType } from '../../../shared/api/common';
import { PartWriteError } from '../api/download';
import { ApiError } from '../api/errors';
import type { JobRow, JobStore, OutputRow } from '../db/jobs';
import { openOwnFile, type FileIdentity } from '../files/own-file';
import { DiskError } from '../jobs/errors';
import { SNIFF_BYTES } from '../outputs/sniff';
import { isMovedAside } from './previous-version';

const LOCAL_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EEXIST']);

/** Local file-system failures become DiskErrors (they are never "the network"). */
export function local(e: unknown, dir: string, needBytes: number | null): unknown {
  if (e instanceof PartWriteError) return new DiskError(e.code, dir, e.remainingBytes ?? needBytes);
  const err = e as NodeJS.ErrnoException;
  // A folder gone meanwhile: the one that held the missing file, named as the user knows it.
  if (err?.code === 'ENOENT' && !(e instanceof ApiError))
    return new DiskError('ENOENT', typeof err.path === 'string' ? dirname(err.path) : dir, needBytes);
  if (err?.code && LOCAL_ERRNOS.has(err.code) && !(e instanceof ApiError))
    return new DiskError(
      err.code === 'EEXIST' || err.code === 'ENOTDIR' ? 'ENOTDIR' : err.code,
      dir,
      needBytes,
    );
  return e;
}

/** The first bytes of a download's own part file (fewer when it is shorter): what the sniffer reads. */
export async function head(path: string, expected: FileIdentity, bytes = SNIFF_BYTES): Promise<Buffer> {
  const { fh } = await openOwnFile(path, 'read', expected);
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether `path` is a file of exactly these bytes (its length, then its SHA-256). */
export async function sameBytesAt(path: string, bytes: number, hash: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size !== bytes) return false;
  return (await sha256(path).catch(() => null)) === hash;
}

/** One of the job's finished outputs with the same length and content (`sha256`, hex), if there is one. */
export async function identicalOutput(
  outputs: readonly OutputRow[],
  mine: string,
  bytes: number,
): Promise<OutputRow | null> {
  const same = outputs.filter((o) => o.done === 1 && o.bytes === bytes);
  for (const o of same) if ((await sha256(o.path).catch(() => null)) === mine) return o;
  return null;
}

/**
 * Outputs of type `type` that a job of the same source saved (or moved into place and was about to record)
 * in the same folder: the language-independent ones are fetched once per source and shared. Of the same
 * content only: an earlier version of the file (a re-export) has outputs of its own. Not one moved aside to
 * `previous/` (an earlier dub's, or a twin of one): this job's results stand beside each other.
 */
export function sourceOutputs(store: JobStore, r: JobRow, type: OutputType): OutputRow[] {
  return store.outputs.ofSource(r, type).filter((o) => !isMovedAside(o.path));
}

const MIB = 1024 * 1024;
/** What any output may be whatever its source (a poster, subtitles, a short clip re-encoded richer). */
const OUTPUT_FLOOR_BYTES = 32 * MIB;
/** 50 Mbit/s: above the bitrate of any video a dubbing service hands back. */
const MAX_BYTES_PER_SECOND = 50_000_000 / 8;
/** A re-encode may be richer than its source, but not this many times. */
const SIZE_FACTOR = 8;
/** A source of unknown size and length (a URL not probed): only an absolute bound. */
const UNKNOWN_SOURCE_CAP = 16 * 1024 * MIB;

/**
 * Subtitles are read whole on the engine's thread (QC, SubRip, the package): 1 MiB, plus 2 KiB a second of
 * media, ten times what cues read at 20 characters a second with their timings weigh, even in a script of
 * three bytes a character.
 */
const SUBTITLE_FLOOR_BYTES = MIB;
const SUBTITLE_BYTES_PER_SECOND = 2048;
const SUBTITLE_TYPES: ReadonlySet<OutputType> = new Set(['translated_subtitle', 'original_subtitle']);

/**
 * The most one output of this job may weigh: 32 MiB, plus the larger of 8x the source's bytes and its
 * duration at 50 Mbit/s (the probed duration, else the service's measured one). A 26 KB, 2 s clip's dub may
 * be 44 MiB at most; a link that keeps streaming past that is stopped, not written to the disk. Subtitles
 * (`type`) are held to their own, far smaller bound.
 */
export function outputByteCap(row: JobRow, measured: number | null, type?: OutputType): number {
  const seconds = row.duration ?? measured ?? 0;
  const bytes = row.source_bytes ?? 0;
  if (type && SUBTITLE_TYPES.has(type))
    return SUBTITLE_FLOOR_BYTES + Math.ceil((seconds > 0 ? seconds : 3600) * SUBTITLE_BYTES_PER_SECOND);
  if (seconds <= 0 && bytes <= 0) return UNKNOWN_SOURCE_CAP;
  return OUTPUT_FLOOR_BYTES + Math.ceil(Math.max(SIZE_FACTOR * bytes, seconds * MAX_BYTES_PER_SECOND));
}

import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { DubdeskError, type ErrorCode } from '../../../shared/contract/errors';
import { mp4MovieDuration } from './mp4-duration';

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
  durationSeconds: number;
  /** With `bytes`, tells an unchanged file from a new export under the same name. */
  mtimeMs: number;
}

const run = promisify(execFile);

/** Duration from the container header (no process per file); ffprobe only when the parsers cannot tell. */
async function durationOf(path: string, mime: string): Promise<number | null> {
  if (/^(video|audio)\/(mp4|quicktime|x-m4v)$/.test(mime)) {
    const movie = await mp4MovieDuration(path).catch(() => null);
    if (movie) return movie;
  }
  const meta = await parseFile(path, { duration: true, skipCovers: true }).catch(() => null);
  const d = meta?.format.duration;
  if (d && Number.isFinite(d) && d > 0) return d;
  const probed = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    path,
  ]).catch(() => null);
  const n = Number(probed?.stdout.trim());
  return Number.isFinite(n) && n > 0 ? n : null;
}

export async function probeFile(path: string): Promise<ProbedFile> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT')
      throw new InputError(
        path,
        'not-found',
        `${path}: no such file.`,
        'Check the path (quote names with spaces).',
      );
    throw new InputError(path, 'permission', `${path}: cannot be read (${e.code ?? e.message}).`);
  });
  if (!info.isFile())
    throw new InputError(path, 'not-media', `${path}: not a regular file.`, 'Name a video or audio file.');
  await access(path, constants.R_OK).catch(() => {
    throw new InputError(
      path,
      'permission',
      `${path}: permission denied.`,
      'Make the file readable, or copy it somewhere readable.',
    );
  });
  if (info.size === 0)
    throw new InputError(
      path,
      'not-media',
      `${path}: the file is empty (0 bytes).`,
      'Pick the finished export, not a placeholder.',
    );
  const type = await fileTypeFromFile(path).catch(() => undefined);
  if (!type || !/^(video|audio)\//.test(type.mime)) {
    const seen = type ? `its bytes are ${type.mime}` : 'its bytes are not a known media format';
    throw new InputError(
      path,
      'not-media',
      `${path}: not a video or audio file (${seen}, whatever its extension says).`,
      'Export it as MP4, MOV, MP3 or WAV.',
    );
  }
  const duration = await durationOf(path, type.mime);
  if (duration === null) {
    throw new InputError(
      path,
      'not-media',
      `${path}: cannot read its duration; the file may be damaged or still being written.`,
      'Re-export it and try again.',
    );
  }
  return {
    path,
    name: basename(path),
    bytes: info.size,
    mime: normalizeMime(type.mime),
    kind: type.mime.startsWith('video/') ? 'video' : 'audio',
    durationSeconds: duration,
    mtimeMs: Math.round(info.mtimeMs),
  };
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

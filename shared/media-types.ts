/** One table of MIME types and file extensions, used by the engine (naming outputs) and the sandbox (naming artifacts). */
const EXTENSION_BY_MIME: Readonly<Record<string, string>> = {
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'video/x-matroska': 'mkv',
  'video/x-msvideo': 'avi',
  'video/x-m4v': 'm4v',
  'video/mpeg': 'mpg',
  'video/mp2t': 'ts',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'text/vtt': 'vtt',
  'application/x-subrip': 'srt',
  'text/srt': 'srt',
  'application/x-subtitle': 'srt',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** `mp4` for `video/mp4` (parameters and case ignored); null when the type is not one we know. */
export function extensionForMime(mime: string | null | undefined): string | null {
  if (!mime) return null;
  return EXTENSION_BY_MIME[mime.split(';')[0]?.trim().toLowerCase() ?? ''] ?? null;
}

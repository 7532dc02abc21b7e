import type { OutputType } from '../../../shared/api/common';

/** Types a storage server sends for its own pages and errors, never for a dub's files. */
const DOCUMENT_TYPES = /^(text\/html|application\/(json|xml|problem\+json)|text\/xml)$/i;
const TEXT_OUTPUTS: ReadonlySet<OutputType> = new Set(['translated_subtitle', 'original_subtitle']);

/**
 * What was downloaded, when it is plainly not the output asked for: a web page or a JSON error answered
 * with 200 in place of the video, audio or subtitles. Null when it may well be the file.
 */
export function notTheFile(type: OutputType, contentType: string | null, head: Buffer): string | null {
  const mime = contentType?.split(';')[0]?.trim() ?? '';
  if (DOCUMENT_TYPES.test(mime)) return `a ${mime} document`;
  if (TEXT_OUTPUTS.has(type)) return null; // subtitles are text: only their type can tell
  const start = head
    .toString('latin1')
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trimStart();
  if (/^<(!doctype|html|\?xml|head|body)/i.test(start)) return 'a web page';
  if (/^[{[]/.test(start)) return 'a JSON document';
  return null;
}

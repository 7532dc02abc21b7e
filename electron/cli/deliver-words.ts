import { basename, extname } from 'node:path';
import type { DeliverFlags } from './deliver-options';

/**
 * What a batch with these delivery choices makes on this machine, never charged, in one sentence for
 * `estimate` (null when it makes nothing beyond the dubs): the package and the SubRip subtitles. `files`:
 * the batch's files, so that a single file's package is named.
 */
export function madeHereWords(flags: DeliverFlags, files: readonly string[]): string | null {
  const parts: string[] = [];
  if (flags.package !== 'none') {
    const format = flags.package.toUpperCase();
    const only = files.length === 1 ? files[0] : undefined;
    const name = only
      ? `${basename(only, extname(only))}.multi.${flags.package}`
      : `Movie.multi.${flags.package} beside each file's dubs`;
    parts.push(`one ${format} per file with every language (${name})`);
  }
  if (flags.subtitles.includes('srt'))
    parts.push(
      flags.subtitles.includes('vtt')
        ? 'SubRip subtitles (.srt) beside the WebVTT'
        : "SubRip subtitles (.srt) in place of the service's WebVTT",
    );
  return parts.length ? `Made here at no charge: ${parts.join(', ')}.` : null;
}

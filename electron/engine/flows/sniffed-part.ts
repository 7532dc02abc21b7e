import { rm } from 'node:fs/promises';
import type { OutputType } from '../../../shared/api/common';
import { DubdeskError } from '../../../shared/contract/errors';
import type { Downloaded } from '../api/download';
import { ApiError } from '../api/errors';
import { SNIFF_BYTES, formatsFor, sniffOutput, type SavedFormat } from '../outputs/sniff';
import { head } from './output-files';

/** The last segment of a link's path (no query: it may carry a signature), for a message. */
function linkName(url: string): string {
  try {
    return new URL(url).pathname.split('/').pop() || url;
  } catch {
    return 'a link that is not a URL';
  }
}

/**
 * The first bytes the sniffer reads: as the transfer kept them when it wrote the part from its start, else
 * (it resumed an earlier part) read from the part.
 */
async function headOf(part: string, result: Downloaded): Promise<Buffer> {
  const kept = result.head;
  if (kept && (kept.length >= SNIFF_BYTES || kept.length === result.bytes))
    return kept.subarray(0, SNIFF_BYTES);
  return head(part, result.identity);
}

/**
 * What a downloaded part is, from its bytes, when output `type` may be saved as that; else the part is
 * removed and the service's mistake said: a page or an error document in the file's place is worth asking
 * again (`protocol`), anything else is the service's to mend.
 */
export async function sniffedPart(
  type: OutputType,
  part: string,
  result: Downloaded,
  link: string,
): Promise<SavedFormat> {
  const sniffed = await sniffOutput(type, result.contentType, await headOf(part, result));
  if (sniffed.ok) return sniffed.format;
  await rm(part, { force: true });
  if (sniffed.page)
    throw new ApiError('protocol', `the service sent ${sniffed.what} instead of the ${type} file`);
  throw new DubdeskError(
    'service',
    `the service sent ${sniffed.what} as ${type} (${linkName(link)}); Dubdesk saves ${type} only as ${formatsFor(type)}, so it was not saved`,
    {
      remedy:
        'Retry later; if it happens again, report it to the service (its files may have been tampered with).',
    },
  );
}

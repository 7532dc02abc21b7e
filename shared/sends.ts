import { formatBytes } from './format';

/**
 * "sends 9.6 MiB (audio) instead of 600 MiB": what a batch puts on the wire, as the Add sheet and the CLI's
 * estimate say it. Null when nothing goes up (links, copies).
 */
export function sendsWords(s: {
  bytes: number;
  wholeBytes: number;
  audioFiles: number;
  wholeOverLimit?: number;
  api?: string;
}): string | null {
  if (s.wholeBytes <= 0) return null;
  if (s.audioFiles === 0) return `sends ${formatBytes(s.wholeBytes)} (whole files)`;
  const audio = `sends ${formatBytes(s.bytes)} (audio)`;
  const over = s.wholeOverLimit ?? 0;
  // A whole file over the upload limit could not have been sent: no "instead of" to compare with.
  if (over === 0) return `${audio} instead of ${formatBytes(s.wholeBytes)}`;
  const limit = s.api ? `the ${s.api} upload limit` : 'the upload limit';
  if (over === 1 && s.audioFiles === 1) return `${audio}; the whole file is over ${limit}`;
  return `${audio}; ${over} of the whole files ${over === 1 ? 'is' : 'are'} over ${limit}`;
}

import { formatBytes } from './format';

/**
 * "sends 9.6 MiB (audio) instead of 600 MiB": what a batch puts on the wire, as the Add sheet and the CLI's
 * estimate say it. Null when nothing goes up (links, copies).
 */
export function sendsWords(s: { bytes: number; wholeBytes: number; audioFiles: number }): string | null {
  if (s.wholeBytes <= 0) return null;
  if (s.audioFiles === 0) return `sends ${formatBytes(s.wholeBytes)} (whole files)`;
  return `sends ${formatBytes(s.bytes)} (audio) instead of ${formatBytes(s.wholeBytes)}`;
}

import type { Estimate, FileEstimate, FreeDub } from './contract/batches';
import { formatBytes } from './format';

const WHY: Record<FreeDub['why'], (of: string | null) => string> = {
  copy: (of) => `copy of ${of ?? 'a file in the queue'}`,
  done: () => 'already dubbed',
  queued: () => 'already queued',
  paid: () => 'already paid',
  made: () => 'dub already made',
};

/**
 * What one file adds to a batch's total, in words: "14", "0 (copy of a.mp4)", "7 (fr: already dubbed)";
 * "?" when its length is known only once dubbed. The CLI's rows and the Add sheet's lines say it alike.
 */
export function fileShareWords(
  file: Pick<FileEstimate, 'credits' | 'free'>,
  languages: number,
  unit = '',
): string {
  const amount = file.credits === null ? '?' : `${file.credits.toLocaleString('en-US')}${unit}`;
  if (file.free.length === 0) return amount;
  const reasons = new Map<string, string[]>();
  for (const f of file.free) {
    const words = WHY[f.why](f.of);
    reasons.set(words, [...(reasons.get(words) ?? []), f.lang]);
  }
  const all = reasons.size === 1 && file.free.length >= languages;
  const notes = [...reasons].map(([words, langs]) => (all ? words : `${langs.join(', ')}: ${words}`));
  return `${amount} (${notes.join('; ')})`;
}

/**
 * What upload-once saves a batch, true of that batch: "each file" only when each is, else how many of its
 * files ("1 of 3 files is uploaded once…; the others are uploaded for each language"). Null when it saves
 * nothing. Lower case: the CLI puts "Upload once:" before it, the Add sheet a capital.
 */
export function uploadOnceWords(u: Estimate['uploadOnce']): string | null {
  if (!u.enabled || u.bytesSaved <= 0) return null;
  const saved = `${formatBytes(u.bytesSaved)} less to send`;
  if (u.files >= u.outOf)
    return `${u.outOf === 1 ? 'the file is' : 'each file is'} uploaded once for all its languages, ${saved}.`;
  const rest = u.outOf - u.files;
  const some =
    u.files === 1
      ? '1 of %d files is uploaded once for all its languages'
      : `${u.files} of %d files are uploaded once for all their languages`;
  return `${some.replace('%d', String(u.outOf))}, ${saved}; the ${rest === 1 ? 'other is' : 'others are'} uploaded for each language.`;
}

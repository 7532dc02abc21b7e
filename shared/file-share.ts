import type { FileEstimate, FreeDub } from './contract/batches';

const WHY: Record<FreeDub['why'], (of: string | null) => string> = {
  copy: (of) => `copy of ${of ?? 'a file in the queue'}`,
  done: () => 'already dubbed',
  queued: () => 'already queued',
  paid: () => 'already paid',
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

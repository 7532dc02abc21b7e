/**
 * Numbers as people type them, wherever they live: a decimal comma ("2,5") and thousands grouped with a
 * dot, comma, space or apostrophe ("5.000", "5,000", "5 000", "5'000"). A browser's number input reads them
 * by the browser's language, which is not the user's (an English browser drops the comma of "2,5": 25).
 */

/** A decimal: "2.5" or "2,5"; null when empty, NaN when not a number. */
export function typedDecimal(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  return /^\d*[.,]?\d+$/.test(t) || /^\d+[.,]$/.test(t) ? Number(t.replace(',', '.')) : Number.NaN;
}

/** A whole number, its thousands grouped or not; null when empty, NaN when not a whole number. */
export function typedWhole(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d+$/.test(t)) return Number(t);
  const grouped = /^\d{1,3}([.,' \u00a0\u202f])\d{3}(\1\d{3})*$/.exec(t);
  return grouped ? Number(t.replace(/\D/g, '')) : Number.NaN;
}

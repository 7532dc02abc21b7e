export { formatBytes, formatLength, formatSpeed } from '../../shared/format';

/** A time left, in words: "45 s", "14 min", "2 h 05 min". */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/**
 * "12,345". Whole numbers are grouped by hand: the first `toLocaleString` of a page loads ICU's number
 * formatting (16-80 ms in the profile of the first render, where the header and sidebar show counts).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** Credits: one credit is one second of dubbed output. */
export function formatCredits(n: number): string {
  return `${formatCount(Math.round(n))} cr`;
}

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** "just now", "5 min ago", "3 h ago", or the date. */
export function formatAgo(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString();
}

/**
 * Text as a search compares it: lower case, without accents, and with the Turkish keyboard's İ (whose lower
 * case is i and a combining dot) and ı as a plain i, so a name is found however a keyboard spells it.
 */
export function searchKey(text: string): string {
  return text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i');
}

/** The last part of a path or URL, for showing long sources briefly. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || path;
}

/** The engine's messages name the file first ("/path/x.mp4: not a video…"); where the line shows it already. */
export function withoutPathPrefix(message: string, path: string): string {
  return message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
}

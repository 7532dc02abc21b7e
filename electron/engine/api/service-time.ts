/**
 * Times as the service writes them, read on the service's terms. An ISO 8601 time without an offset
 * (`2026-11-27T19:43:06.123456`, Python's `isoformat()` of a naive datetime) is the service's UTC, never
 * this machine's local time, which `Date.parse` would assume (hours off for a user east or west of UTC).
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Milliseconds since the epoch, or null when `text` is not an ISO 8601 date and time. */
export function serviceTime(text: string): number | null {
  const m = text.trim().match(ISO);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone = 'Z'] = m;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (!Number.isFinite(utc)) return null;
  // Out of range fields (month 13, 25 o'clock) roll over in Date.UTC: not a time the service meant.
  const back = new Date(utc);
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCHours() !== Number(h)) return null;
  if (zone.toUpperCase() === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return utc - sign * offsetMin * 60_000;
}

/** The service's clock from an HTTP `Date` header (whole seconds), or null when absent or unreadable. */
export function headerTime(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

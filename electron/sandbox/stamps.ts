import type { FaultSettings } from './options';

export type TimeStyle = FaultSettings['timestamps'];

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A `created_at` as the service writes it: ISO 8601 in UTC (`Z`); or, under the `timestamps` fault, without
 * an offset and with microseconds (Python's `isoformat()` of a naive UTC datetime), or day first with
 * slashes, which no ISO parser reads.
 */
export function stampOf(at: Date, style: TimeStyle): string {
  const iso = at.toISOString();
  if (style === 'iso') return iso;
  if (style === 'naive') return `${iso.slice(0, -1)}000`;
  return `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${iso.slice(11, 19)}`;
}

/**
 * Numbers as ffprobe prints them, so that what is read here equals what ffprobe would have said to the bit:
 * the send plan bills the sound's length, and the estimate shows its weight, from these.
 */

/**
 * A double printed with C's `%f` (six decimals, halves to even on the exact binary value, as glibc does)
 * and read back, which is what a length in ffprobe's JSON becomes once parsed.
 */
export function printedSeconds(value: number): number {
  if (!Number.isFinite(value)) return value;
  const scaled = exactTimesMillion(Math.abs(value));
  const text = `${scaled / 1_000_000n}.${String(scaled % 1_000_000n).padStart(6, '0')}`;
  return Number(value < 0 ? `-${text}` : text);
}

/** |value| x 10^6 rounded to an integer, halves to even, from the double's exact mantissa and exponent. */
function exactTimesMillion(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const shift = (exponent === 0 ? 1 : exponent) - 1075;
  if (shift >= 0) return mantissa * 1_000_000n * (1n << BigInt(shift));
  const den = 1n << BigInt(-shift);
  const num = mantissa * 1_000_000n;
  const q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && q % 2n === 1n)) return q + 1n;
  return q;
}

/** ffmpeg's `av_rescale(a, b, c)`: a x b / c rounded to the nearest integer, halves away from zero. */
export function rescale(a: bigint, b: bigint, c: bigint): bigint {
  return (2n * a * b + c) / (2n * c);
}

/** A length of `units` in a time base of `1/scale`, as ffprobe prints it (`units * av_q2d(1/scale)`). */
export const unitsAsSeconds = (units: number, scale: number) => printedSeconds(units * (1 / scale));

import { cliTruncate } from './text-width';

/** A name never shrinks below this many columns while there is something else to cut. */
const MIN_NAME = 12;

export const fits = (s: string, width: number) => cliTruncate(s, width) === s;

/**
 * `head + name + tail` in at most `width` terminal columns (wide CJK and emoji counted as two): the name
 * gives way first, cut in its middle so its start and end stay (a number may lead a name, "001 …", or end
 * it, "take 2", "(2)", with the extension: either tells files of one long name apart; the head keeps the
 * job number); then the tail is cut at its end.
 */
export function fitLine(head: string, name: string, tail: string, width: number): string {
  const whole = `${head}${name}${tail}`;
  if (fits(whole, width)) return whole;
  const shortName = (n: number) => cliTruncate(name, n, { position: 'middle' });
  let best = MIN_NAME;
  for (let lo = MIN_NAME, hi = width; lo <= hi;) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(`${head}${shortName(mid)}${tail}`, width)) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return cliTruncate(`${head}${shortName(best)}${tail}`, width);
}

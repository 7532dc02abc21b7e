import cliTruncate from 'cli-truncate';

/** A name never shrinks below this many columns while there is something else to cut. */
const MIN_NAME = 12;

export const fits = (s: string, width: number) => cliTruncate(s, width) === s;

/**
 * `head + name + tail` in at most `width` terminal columns (wide CJK and emoji counted as two): the name
 * gives way first, cut at its start so its end stays (where "take 2", "part 3" or "(2)" and the extension
 * tell files of one long name apart; the head keeps the job number); then the tail is cut at its end.
 */
export function fitLine(head: string, name: string, tail: string, width: number): string {
  const whole = `${head}${name}${tail}`;
  if (fits(whole, width)) return whole;
  const shortName = (n: number) => cliTruncate(name, n, { position: 'start' });
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

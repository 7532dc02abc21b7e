import { cliTruncate } from './text-width';

/** A name never shrinks below this many columns while there is something else to cut. */
const MIN_NAME = 12;

export const fits = (s: string, width: number) => cliTruncate(s, width) === s;

/**
 * Where `name` stops sharing its start with the names beside it: `at`, its first character that no other
 * name has in that place (0 when it shares no start), and `from`, the start of the word before that one,
 * where a cut may begin ("…partie 2 avec…" of "Conférence annuelle — partie 2 avec un nom très long.mp4").
 */
export interface Distinct {
  at: number;
  from: number;
}

export function distinctStart(name: string, names: Iterable<string>): Distinct {
  let at = 0;
  for (const other of names) {
    if (other === name) continue;
    let i = 0;
    while (i < name.length && name[i] === other[i]) i++;
    at = Math.max(at, i);
  }
  const spaceBefore = at > 0 ? name.lastIndexOf(' ', at - 1) : -1;
  return { at, from: spaceBefore > 0 ? name.lastIndexOf(' ', spaceBefore - 1) + 1 : 0 };
}

/**
 * `name` in `n` columns, cut in its middle; but where the names beside it share a start longer than the cut
 * keeps, the shared start gives way instead, and then the end, so the line still tells its file from theirs.
 */
export function shortened(name: string, n: number, distinct: Distinct | undefined): string {
  const middle = cliTruncate(name, n, { position: 'middle' });
  const cut = middle.indexOf('…');
  if (!distinct || distinct.from === 0 || cut < 0) return middle;
  const endKept = name.length - (middle.length - cut - 1);
  if (distinct.at < cut || distinct.at >= endKept) return middle;
  // From where it differs, as much as fits: the end it shares with its neighbours (".mp4") tells nothing.
  return `…${cliTruncate(name.slice(distinct.from), n - 1, { position: 'end' })}`;
}

/**
 * `head + name + tail` in at most `width` terminal columns (wide CJK and emoji counted as two): the name
 * gives way first, cut in its middle so its start and end stay (a number may lead a name, "001 …", or end
 * it, "take 2", "(2)", with the extension: either tells files of one long name apart; the head keeps the
 * job number), or, given where it differs from its neighbours (`distinct`), its shared start; then the tail
 * is cut at its end.
 */
export function fitLine(
  head: string,
  name: string,
  tail: string,
  width: number,
  distinct?: Distinct,
): string {
  const whole = `${head}${name}${tail}`;
  if (fits(whole, width)) return whole;
  const shortName = (n: number) => shortened(name, n, distinct);
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

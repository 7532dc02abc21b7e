/** How deep a service's answer may nest: a page of dubs is four levels deep, an error message a few more. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text nests deeper than `max` arrays and objects, found by one pass over its brackets
 * outside strings, without parsing it: an answer nested 200,000 deep is refused before anything walks it
 * (a recursive walk, the log's serializer, would run out of stack on it).
 */
export function nestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

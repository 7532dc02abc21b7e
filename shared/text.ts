/** The most of any one piece of service text a user is shown. */
export const SERVICE_TEXT_MAX = 300;

const ESC = 0x1b;
const BEL = 0x07;
const ST = 0x9c;
/** ESC ] (OSC), ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC): strings that run until a terminator. */
const STRING_INTRODUCERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);
/** The same five as single C1 code points. */
const C1_STRING_INTRODUCERS = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);
const C1_CSI = 0x9b;
/** Bidi embeddings, overrides, isolates and marks: they can make text read differently from what it is. */
const BIDI = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
const SPACES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x85, 0x2028, 0x2029]);
/** Every other space JavaScript knows (no-break, ideographic, en/em…): collapsed too, so the result is trimmed. */
const WHITESPACE = /^\s$/;

const between = (c: number, lo: number, hi: number) => c >= lo && c <= hi;

/** Past a CSI's parameters, intermediates and final byte. */
function skipCsi(s: string, j: number): number {
  while (j < s.length && between(s.charCodeAt(j), 0x30, 0x3f)) j++;
  while (j < s.length && between(s.charCodeAt(j), 0x20, 0x2f)) j++;
  if (j < s.length && between(s.charCodeAt(j), 0x40, 0x7e)) j++;
  return j;
}

/** Past an OSC/DCS-style string: up to BEL, ST or ESC \; any other ESC ends it and is read on its own. */
function skipString(s: string, j: number): number {
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === ST) return j + 1;
    if (c === ESC) return s.charCodeAt(j + 1) === 0x5c ? j + 2 : j;
    j++;
  }
  return j;
}

/** Past ESC and whatever sequence it starts. */
function skipEscape(s: string, i: number): number {
  const next = s.charCodeAt(i + 1);
  if (next === 0x5b) return skipCsi(s, i + 2);
  if (STRING_INTRODUCERS.has(next)) return skipString(s, i + 2);
  let j = i + 1;
  while (j < s.length && between(s.charCodeAt(j), 0x20, 0x2f)) j++;
  if (j < s.length && between(s.charCodeAt(j), 0x30, 0x7e)) j++;
  return j;
}

/**
 * Text from the service made safe to show anywhere (terminal, log, UI): terminal escape sequences, C0 and
 * C1 controls and bidi controls removed, line breaks and tabs turned into single spaces, lone surrogates
 * replaced, and at most `maxLength` characters (code points), the last one an ellipsis when cut.
 * Linear in the input it reads, and it stops reading once it has enough.
 */
export function cleanServiceText(text: string, maxLength = SERVICE_TEXT_MAX): string {
  const limit = Math.max(1, Math.floor(maxLength));
  const out: string[] = [];
  let pendingSpace = false;
  let i = 0;
  while (i < text.length && out.length <= limit) {
    const c = text.charCodeAt(i);
    if (c === ESC) {
      i = skipEscape(text, i);
      continue;
    }
    if (c === C1_CSI) {
      i = skipCsi(text, i + 1);
      continue;
    }
    if (C1_STRING_INTRODUCERS.has(c)) {
      i = skipString(text, i + 1);
      continue;
    }
    i++;
    if (c === 0x20 || SPACES.has(c) || (c > 0x7f && WHITESPACE.test(String.fromCharCode(c)))) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (c < 0x20 || between(c, 0x7f, 0x9f) || BIDI.has(c)) continue;
    let ch: string;
    if (between(c, 0xd800, 0xdbff) && between(text.charCodeAt(i), 0xdc00, 0xdfff)) {
      ch = text.slice(i - 1, i + 1);
      i++;
    } else if (between(c, 0xd800, 0xdfff)) {
      ch = '\ufffd';
    } else {
      ch = text[i - 1] as string;
    }
    if (pendingSpace) {
      out.push(' ');
      pendingSpace = false;
    }
    out.push(ch);
  }
  if (out.length > limit) return `${out.slice(0, limit - 1).join('')}…`;
  return out.join('');
}

/**
 * Any value the service sends where text is expected (a message may be a string or an object; the spec does
 * not say): a short one-line rendering, cleaned like `cleanServiceText`. Never throws, whatever the depth.
 */
export function serviceValueText(value: unknown, maxLength = SERVICE_TEXT_MAX): string {
  return cleanServiceText(render(value, 3, maxLength * 2), maxLength);
}

function render(value: unknown, depth: number, budget: number): string {
  if (typeof value === 'string') return value.slice(0, budget);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return '';
  if (depth === 0) return Array.isArray(value) ? '[…]' : '{…}';
  const parts: string[] = [];
  let used = 0;
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map((v): [null, unknown] => [null, v])
    : Object.entries(value);
  for (const [k, v] of entries) {
    if (used > budget) {
      parts.push('…');
      break;
    }
    const inner = render(v, depth - 1, budget - used);
    const part = k === null ? inner : `${k.slice(0, 100)}: ${inner}`;
    used += part.length + 2;
    parts.push(part);
  }
  return Array.isArray(value) ? `[${parts.join(', ')}]` : `{${parts.join(', ')}}`;
}

import { cleanServiceText } from '../../../shared/text';

/**
 * API keys scrubbed from what the service says, where its text enters Dubdesk: a service that quotes the
 * key back ("quota lookup failed for key=…", a failed dub's message, a 401 body) must not get it into the
 * database, the faces, or the log. Every key Dubdesk knows is scrubbed (the one in use and any stored), in
 * every form a text may carry it: as it is, JSON-escaped, URL-encoded. A text that still holds a key once
 * decoded some other way is replaced whole.
 */

export const REDACTED = '[redacted]';
/** Shorter "keys" (a test's `k`) cannot be told apart from letters: they are not looked for. */
const MIN_KEY_LENGTH = 4;
export const QUOTED_KEY_TEXT = 'the service quoted your API key here; Dubdesk does not keep it';

/** What the keys to scrub are, read when a text is scrubbed (a key may change while clients live). */
export type Secrets = () => readonly string[];

const lowerPercents = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** Forms by key: every string of every answer is looked at, the few keys' forms are made once. */
const formsByKey = new Map<string, string[]>();

/** The ways a key is written inside a text: raw, JSON-escaped (also with `\/`), URL-encoded (both cases, `+`). */
function formsOf(key: string): string[] {
  const known = formsByKey.get(key);
  if (known) return known;
  if (formsByKey.size > 100) formsByKey.clear();
  const json = JSON.stringify(key).slice(1, -1);
  const url = encodeURIComponent(key);
  const forms = [key, json, json.replace(/\//g, '\\/'), url, lowerPercents(url), url.replace(/%20/g, '+')];
  // Longest first: a form that holds another is replaced whole.
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length);
  formsByKey.set(key, sorted);
  return sorted;
}

/** `\"`, `\\`, `\/`, `\uXXXX` and the other JSON escapes read as the characters they stand for. */
function unescapeJson(s: string): string {
  const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (simple[e] ?? e),
  );
}

/** `%XX` sequences (and `+`) read as the characters they stand for, whatever is broken around them. */
function percentDecode(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The text read every way it may have been encoded. */
function decodedViews(text: string): string[] {
  const views: string[] = [];
  if (text.includes('\\')) views.push(unescapeJson(text));
  if (text.includes('%') || text.includes('+')) views.push(percentDecode(text));
  if (text.includes('\\') && text.includes('%'))
    views.push(percentDecode(unescapeJson(text)), unescapeJson(percentDecode(text)));
  return views;
}

/** The keys worth looking for. */
const usable = (keys: readonly string[]) => keys.filter((k) => k.length >= MIN_KEY_LENGTH);

/** What `cleanServiceText` takes out of a text before it is shown: a key split by them shows whole. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Every key's raw, JSON-escaped and URL-encoded forms in `text` replaced (the log's lines: JSON kept whole). */
export function redactForms(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of usable(keys))
    for (const form of formsOf(key)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** `text` without any of `keys`, in any form; replaced whole when a key shows through once it is decoded. */
export function scrubText(text: string, keys: readonly string[]): string {
  const wanted = usable(keys);
  if (wanted.length === 0 || text.length < MIN_KEY_LENGTH) return text;
  const out = redactForms(text, wanted);
  const shown = HIDDEN.test(out) ? cleanServiceText(out, out.length + 1) : out;
  const views = [...(shown === out ? [] : [shown]), ...decodedViews(shown)];
  if (views.some((v) => wanted.some((k) => v.includes(k)))) return QUOTED_KEY_TEXT;
  return out;
}

/**
 * A parsed answer with every string in it (property names too) scrubbed. The answer's depth is bounded
 * before it is parsed (see `checkDepth`), so this walk's is too.
 */
export function scrubValue(value: unknown, keys: readonly string[]): unknown {
  if (usable(keys).length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v, keys);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubText(k, keys), walk(x)]));
    return v;
  };
  return walk(value);
}

/**
 * The name a URL source goes by: its last path segment, percent-decoded where the escapes are valid
 * (`https://h/a%E0.mp4` keeps `a%E0.mp4` rather than throwing), `fallback` when there is none.
 * Pure string work: shared/ has no URL class guarantees across runtimes, and a bad URL must never throw.
 */
export function nameFromUrl(raw: string, fallback = 'source'): string {
  const withoutScheme = raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const path = withoutScheme.split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter(Boolean).at(-1) ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last.replace(/%([0-9a-f]{2})/gi, (m, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : m;
    });
  }
  return name.trim() || fallback;
}

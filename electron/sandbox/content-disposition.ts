/** Most file systems take at most 255 bytes for one name; a longer one is no use to `curl -OJ` or a browser. */
const MAX_NAME_BYTES = 255;

/** Controls and path separators: a name with them is either refused or split by the consumer's file system. */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/**
 * A file name any file system and download client can take: no controls or separators, at most 255 UTF-8
 * bytes, the extension kept when the stem has to be shortened, never a code point cut in half.
 */
export function safeFileName(name: string, fallback = 'download', maxBytes = MAX_NAME_BYTES): string {
  const clean = name.replace(UNSAFE_IN_NAME, '_').trim() || fallback;
  if (Buffer.byteLength(clean) <= maxBytes) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  let budget = maxBytes - Buffer.byteLength(ext);
  let stem = '';
  for (const ch of clean.slice(0, clean.length - ext.length)) {
    budget -= Buffer.byteLength(ch);
    if (budget < 0) break;
    stem += ch;
  }
  return `${stem}${ext}`;
}

/** The quoted `filename="..."` for clients without RFC 5987: plain ASCII that needs no escaping anywhere. */
function asciiFallback(name: string): string {
  return name.replace(/[^A-Za-z0-9 ._()+,=@&!#$'~-]/g, '_');
}

/** RFC 5987 value-chars: attr-char stays, everything else (UTF-8 bytes included) is percent-encoded. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * An RFC 6266 Content-Disposition header: an ASCII fallback for old clients plus the exact UTF-8 name in
 * `filename*`. Whatever the name holds, the result is printable ASCII, so it never breaks the response.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const name = safeFileName(fileName);
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc5987(name)}`;
}

/** `20261122T034621Z` (the X-Amz-Date form of pre-signed links) to epoch ms; null when malformed. */
export function parseAmzDate(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, se] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, se);
}

/** When a pre-signed link stops working, from its own query (X-Amz-Date + X-Amz-Expires, or Expires); null if it does not say. */
export function presignedExpiry(url: string): number | null {
  const q = queryOf(url);
  const date = parseAmzDate(q.get('X-Amz-Date') ?? '');
  const ttl = Number(q.get('X-Amz-Expires'));
  if (date !== null && q.has('X-Amz-Expires') && Number.isFinite(ttl)) return date + ttl * 1000;
  const expires = Number(q.get('Expires'));
  if (Number.isFinite(expires) && expires > 0) return expires * 1000;
  return null;
}

/** The query of a URL as a map (shared/ has no DOM or Node types, so no URL class here). */
function queryOf(url: string): Map<string, string> {
  const q = new Map<string, string>();
  const query = url.split('#')[0]?.split('?')[1] ?? '';
  for (const pair of query.split('&')) {
    const [k, v = ''] = pair.split('=');
    if (!k) continue;
    try {
      q.set(decodeURIComponent(k), decodeURIComponent(v.replace(/\+/g, ' ')));
    } catch {
      /* malformed escape: skip the pair */
    }
  }
  return q;
}

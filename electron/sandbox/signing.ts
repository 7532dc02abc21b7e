import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseAmzDate } from '../../shared/presigned';

/**
 * Pre-signed links in the manner of object storage: the query carries the date, the lifetime in seconds
 * and an HMAC over method, path, date, lifetime and any extra signed parameters. No API key is involved.
 */
export class UrlSigner {
  constructor(
    private readonly now: () => number,
    /** Kept in the state directory when there is one, so links survive a restart. */
    readonly secret: Buffer = randomBytes(32),
  ) {}

  sign(method: string, url: URL, ttlSeconds: number, extra: Record<string, string> = {}): URL {
    const date = new Date(this.now()).toISOString().replace(/[-:]|\.\d{3}/g, '');
    const signed = new URL(url);
    signed.searchParams.set('X-Amz-Date', date);
    signed.searchParams.set('X-Amz-Expires', String(Math.round(ttlSeconds)));
    for (const [k, v] of Object.entries(extra)) signed.searchParams.set(k, v);
    signed.searchParams.set('X-Amz-Signature', this.mac(method, signed));
    return signed;
  }

  /** 'ok', or why the link is refused; both refusals are a 403 like real object storage. */
  verify(method: string, url: URL): 'ok' | 'expired' | 'bad-signature' {
    const given = url.searchParams.get('X-Amz-Signature') ?? '';
    const expected = this.mac(method, url);
    // The text itself, not its hex decoding: decoding stops at the first non-hex character, so junk
    // appended to a good signature would decode to the same bytes and pass.
    const a = Buffer.from(given, 'utf8');
    const b = Buffer.from(expected, 'utf8');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return 'bad-signature';
    const date = parseAmzDate(url.searchParams.get('X-Amz-Date') ?? '');
    const ttl = Number(url.searchParams.get('X-Amz-Expires'));
    if (date === null || !Number.isFinite(ttl)) return 'bad-signature';
    return this.now() > date + ttl * 1000 ? 'expired' : 'ok';
  }

  private mac(method: string, url: URL): string {
    const params = [...url.searchParams.entries()]
      .filter(([k]) => k !== 'X-Amz-Signature')
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    return createHmac('sha256', this.secret).update(`${method}\n${url.pathname}\n${params}`).digest('hex');
  }
}

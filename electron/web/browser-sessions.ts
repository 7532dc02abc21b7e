import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { newToken } from './token';

/** Sessions are kept and looked up by their hash: a lookup's timing then says nothing about an id. */
const hashOf = (id: string) => createHash('sha256').update(id, 'utf8').digest('base64url');

/**
 * The sessions of the browsers that traded a one-time code (session-codes.ts): each trade gives its browser
 * a session id in a cookie, so every tab of that browser, a reload, the same address opened again, and a
 * tab found after lunch all work, while another browser (or another local user) still needs a code.
 *
 * The cookie is `HttpOnly` (no script reads it, ours included), `SameSite=Strict` (another site's pages
 * never make the browser send it), host-only on 127.0.0.1 with `Path=/`, and lasts the browser's session;
 * serve forgets every session when it stops. A cookie is bound to a host, not to a port: any page of
 * 127.0.0.1, on any port, counts as the same site and would make the browser send it. So a cookie alone
 * opens nothing: guard.ts takes it only on a request the browser itself marks `Sec-Fetch-Site:
 * same-origin` (made by this server's own page), after the Host and Origin rules; the port is in its name,
 * so two `serve`s in one browser keep a session each.
 */
export class BrowserSessions {
  /** The sessions' hashes, oldest first: the oldest go when there are too many (one per trade). */
  private readonly live = new Set<string>();

  constructor(
    private readonly port: () => number,
    private readonly max = 256,
  ) {}

  get cookieName(): string {
    return `dubdesk-session-${this.port()}`;
  }

  /** A new session, sent as a cookie with `reply`. */
  open(reply: FastifyReply): void {
    while (this.live.size >= this.max) {
      const oldest = this.live.values().next().value;
      if (oldest === undefined) break;
      this.live.delete(oldest);
    }
    const id = newToken();
    this.live.add(hashOf(id));
    reply.header(
      'set-cookie',
      stringifySetCookie({ name: this.cookieName, value: id, httpOnly: true, sameSite: 'strict', path: '/' }),
    );
  }

  /** Whether the request carries the cookie of a live session. */
  carried(req: FastifyRequest): boolean {
    const header = req.headers.cookie;
    if (!header) return false;
    const given = parseCookie(header)[this.cookieName];
    return given !== undefined && given.length <= 512 && this.live.has(hashOf(given));
  }

  /** Forgets every session (serve stops). */
  clear(): void {
    this.live.clear();
  }
}

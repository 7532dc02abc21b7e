import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_TOKEN_PARAM, ROUTES } from '../../shared/serve-protocol';
import type { MediaTokens } from './media-tokens';
import { sendError, sendUnauthorized } from './replies';
import { bearerOf, sameToken } from './token';

/** Every response: no sniffing, no referrer, no framing, scripts and media from this origin only. */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // React's style props are set through the DOM, not inline markup; the renderer may still ship <style>.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // Other sites may not even embed our media or scripts (they would need a token anyway).
  'cross-origin-resource-policy': 'same-origin',
};

export type RouteKind = 'api' | 'staging' | 'media' | 'session' | 'page';

/** Which kind of route a path is, from its prefix alone: unknown paths under /api are still protected. */
export function routeKind(url: string): RouteKind {
  const path = url.split('?', 1)[0] ?? '';
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (path === '/staging' || path.startsWith('/staging/')) return 'staging';
  if (path === '/media' || path.startsWith('/media/')) return 'media';
  if (path === ROUTES.session) return 'session';
  return 'page';
}

export interface GuardOptions {
  token: string;
  mediaTokens: MediaTokens;
  /** The port really listened on (known once listening). */
  port(): number;
}

function mediaTokenOf(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.[MEDIA_TOKEN_PARAM];
  return typeof v === 'string' ? v : undefined;
}

/**
 * One gate in front of every route, 404s included:
 * 1. the Host header must name this server (`127.0.0.1:<port>` or `localhost:<port>`): a page of another
 *    site whose name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name and is refused;
 * 2. a browser request from another origin is refused (Origin, Sec-Fetch-Site), and no CORS header is
 *    ever sent, so no other page can read an answer either;
 * 3. the API, staging and media need the session token (media: or a media token; see media-tokens.ts);
 *    the page and the code exchange (session-codes.ts) need none: they are how the page gets it.
 */
export function guardRequests(app: FastifyInstance, opts: GuardOptions): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.header(k, v);
    const port = opts.port();
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.includes(host))
      return sendError(
        reply,
        {
          code: 'bad-request',
          message: `this server answers only to ${hosts.join(' and ')}`,
        },
        421,
      );
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const foreignOrigin = origin !== undefined && !hosts.some((h) => origin === `http://${h}`);
    // `none`: the user opened the address themselves; `same-site` would include other ports of 127.0.0.1.
    const foreignSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (foreignOrigin || foreignSite)
      return sendError(reply, {
        code: 'permission',
        message: 'requests from other sites are refused',
      });

    const kind = routeKind(req.url);
    if (kind === 'page' || kind === 'session') return;
    if (sameToken(bearerOf(req.headers.authorization), opts.token)) return;
    if (kind === 'media' && opts.mediaTokens.use(mediaTokenOf(req))) return;
    return sendUnauthorized(reply);
  });
}

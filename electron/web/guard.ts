import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_TOKEN_PARAM, MEDIA_TOKEN_PARAM } from '../../shared/serve-protocol';
import type { BrowserSessions } from './browser-sessions';
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

/**
 * Who may call a route, set on the route itself (`config: { auth }`) and read from the route the router
 * MATCHED, never from how the path was spelled: the router decodes `%61pi` to `api`, a prefix test of the
 * raw path does not. A route not marked is `token`: nothing is public unless it says so.
 * - `public`: the page and the code exchange, how the page gets its token;
 * - `token`: the session token (the API, events, staging, downloads);
 * - `preview`: the session token, or a media token (`?mt=`): what <video>/<track>/<img> of the preview load;
 * - `download`: the session token, or a download token (`?dt=`): a job's files, the results zip.
 */
export type RouteAuth = 'public' | 'token' | 'preview' | 'download';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

/** A route's options that let anyone call it. */
export const PUBLIC_ROUTE = { config: { auth: 'public' } } as const;
/** A route's options that let a media token call it, as the preview player does. */
export const PREVIEW_ROUTE = { config: { auth: 'preview' } } as const;
/** A route's options that let a download token call it, as a download link does. */
export const DOWNLOAD_ROUTE = { config: { auth: 'download' } } as const;

/**
 * Whether a request's path is spelled the one way we serve it: no percent-encoding (no route of ours
 * needs one: ids, kinds and asset names are plain), no backslash, no `;`, no empty, `.` or `..` segment.
 * Anything else might be read differently by the router and by whoever checks it, so it is refused.
 */
export function canonicalPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  if (!path.startsWith('/') || /[%\\;]/.test(path)) return false;
  return !path
    .slice(1)
    .split('/')
    .some((seg, i, all) => seg === '.' || seg === '..' || (seg === '' && i < all.length - 1));
}

export interface GuardOptions {
  token: string;
  /** The browsers' session cookies (browser-sessions.ts). */
  sessions: BrowserSessions;
  /** `?mt=`: the preview's tokens. */
  mediaTokens: MediaTokens;
  /** `?dt=`: the download links' tokens. */
  downloadTokens: MediaTokens;
  /** The port really listened on (known once listening). */
  port(): number;
}

function queryTokenOf(req: FastifyRequest, param: string): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.[param];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Whether a request is the browser opening a page in a tab: a top-level GET navigation (Fetch Metadata, which
 * every current browser sends to 127.0.0.1). Another site may do that much, as any link may: what it opens
 * is a tab it cannot read (no CORS, COOP) nor frame, of a public page (the renderer) that holds nothing.
 */
function isPageNavigation(req: FastifyRequest): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.headers['sec-fetch-mode'] === 'navigate' &&
    req.headers['sec-fetch-dest'] === 'document'
  );
}

/**
 * One gate in front of every route, 404s included:
 * 1. the Host header must name this server (`127.0.0.1:<port>` or `localhost:<port>`): a page of another
 *    site whose name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name and is refused;
 * 2. a browser request from another origin is refused (Origin, Sec-Fetch-Site), and no CORS header is
 *    ever sent, so no other page can read an answer either. One exception: a tab opened on a public page
 *    (isPageNavigation) from elsewhere, as the page `serve` opens the browser on (a `file://` page, so
 *    `cross-site`) or a bookmark does;
 * 3. a path spelled in any but the canonical way (percent-escapes, dot segments) is refused;
 * 4. every route needs the session unless it is marked otherwise (RouteAuth): the token in an
 *    Authorization header (scripts), or the session cookie of a browser that traded a code, on a request
 *    its own page made (`Sec-Fetch-Site: same-origin`); the preview's media takes a media token too, a
 *    download a download token (media-tokens.ts); the page and the code exchange (session-codes.ts) need
 *    none: they are how a browser gets a session.
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
    const auth = req.routeOptions.config.auth ?? 'token';
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const foreignOrigin = origin !== undefined && !hosts.some((h) => origin === `http://${h}`);
    // `none`: the user opened the address themselves; `same-site` would include other ports of 127.0.0.1.
    const foreignSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    const openingPage = auth === 'public' && isPageNavigation(req);
    if ((foreignOrigin || foreignSite) && !openingPage)
      return sendError(reply, {
        code: 'permission',
        message: 'requests from other sites are refused',
      });

    if (!canonicalPath(req.url))
      return sendError(reply, {
        code: 'bad-request',
        message: 'this path is not spelled the way this server serves it (no %-escapes, no . or .. or //)',
      });
    if (auth === 'public') return;
    if (sameToken(bearerOf(req.headers.authorization), opts.token)) return;
    if (site === 'same-origin' && opts.sessions.carried(req)) return;
    if (auth === 'preview' && opts.mediaTokens.use(queryTokenOf(req, MEDIA_TOKEN_PARAM))) return;
    if (auth === 'download' && opts.downloadTokens.use(queryTokenOf(req, DOWNLOAD_TOKEN_PARAM))) return;
    return sendUnauthorized(reply);
  });
}

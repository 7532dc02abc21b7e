import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROUTES } from '../../shared/serve-protocol';
import type { BrowserSessions } from './browser-sessions';
import { PUBLIC_ROUTE } from './guard';
import { sendError, sendValue } from './replies';
import { newToken, sameToken } from './token';

/** How long an address opened in the browser stays good: it is used within seconds. */
export const OPENED_CODE_TTL_MS = 60 * 1000;
/** How long the printed address stays good: the user may open it a little later (`--no-open`). */
export const PRINTED_CODE_TTL_MS = 10 * 60 * 1000;

/**
 * One-time codes for the addresses `serve` prints and opens. An address passes through places others can
 * read: the opener's command line (`ps`), the browser's history and session files. What it carries is a
 * code, good once and for a short time, that the page trades for the session token (POST /session); the
 * token itself travels only in request headers. A code is random (32 bytes), compared in constant time,
 * used up by its exchange, and forgotten when `serve` stops.
 */
/** Why a code is no more: traded for a session, past its time, or forgotten (too many, or serve stops). */
export type CodeEnd = 'traded' | 'expired' | 'dropped';

export class SessionCodes {
  private readonly live = new Map<string, { expires: number; gone?: (end: CodeEnd) => void }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 64,
  ) {}

  /** A new code, good once for `ttlMs`; `gone` is called once it is traded, pushed out or found expired. */
  mint(ttlMs: number, gone?: (end: CodeEnd) => void): string {
    this.prune();
    while (this.live.size >= this.max) {
      const oldest = this.live.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest, 'dropped');
    }
    const code = newToken();
    this.live.set(code, { expires: this.now() + ttlMs, ...(gone ? { gone } : {}) });
    return code;
  }

  /** Whether `given` is a live code; it is used up either way it matched. */
  take(given: string): boolean {
    this.prune();
    let found: string | undefined;
    for (const code of this.live.keys()) if (sameToken(given, code)) found = code;
    if (found === undefined) return false;
    this.forget(found, 'traded');
    return true;
  }

  /** Forgets the codes whose time is up (a timer calls this at a code's end, so its `gone` runs then). */
  expireDue(): void {
    this.prune();
  }

  /** Forgets every code (serve stops). */
  clear(): void {
    for (const code of [...this.live.keys()]) this.forget(code, 'dropped');
  }

  private forget(code: string, end: CodeEnd): void {
    const gone = this.live.get(code)?.gone;
    this.live.delete(code);
    gone?.(end);
  }

  private prune(): void {
    const now = this.now();
    for (const [code, { expires }] of this.live) if (now > expires) this.forget(code, 'expired');
  }
}

const ExchangeSchema = z.object({ code: z.string().min(1).max(512) });

/** What the page says when it has no session, and what `--link` is for. */
export const NEW_LINK_REMEDY =
  'Run `dubdesk serve --link` (or press Enter where `dubdesk serve` runs) for a new address, and open it.';

/**
 * The session routes, all but the last public (they are how a browser gets a session):
 * - `POST /session {code}`: a live code for the session token (scripts send it as a Bearer token) and, for
 *   the browser, a session cookie (browser-sessions.ts). JSON only, from this server's own page or from
 *   a program (guard.ts refuses other sites): another site cannot trade a code into the user's browser;
 * - `GET /session`: whether this browser's cookie is a live session (the page asks before it starts, to
 *   show the app or the page about getting a new address);
 * - `POST /session/link`: a fresh one-time address, for whoever holds the session (`serve --link`).
 */
export function sessionRoutes(
  app: FastifyInstance,
  codes: SessionCodes,
  token: string,
  sessions: BrowserSessions,
  newAddress: () => string,
): void {
  app.post(ROUTES.session, PUBLIC_ROUTE, async (req, reply) => {
    const body = ExchangeSchema.safeParse(req.body);
    if (!body.success)
      return sendError(reply, {
        code: 'bad-request',
        message: 'POST /session takes {"code": "<the code in the address serve printed>"}',
      });
    if (!codes.take(body.data.code))
      return sendError(reply, {
        code: 'auth',
        message: 'this address was used already, or is too old',
        remedy: NEW_LINK_REMEDY,
      });
    sessions.open(reply);
    return sendValue(reply, { token });
  });
  app.get(ROUTES.session, PUBLIC_ROUTE, async (req, reply) =>
    sendValue(reply, {
      signedIn: req.headers['sec-fetch-site'] === 'same-origin' && sessions.carried(req),
    }),
  );
  app.post(ROUTES.newLink, async (_req, reply) => sendValue(reply, { address: newAddress() }));
}

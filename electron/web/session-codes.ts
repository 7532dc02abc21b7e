import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROUTES } from '../../shared/serve-protocol';
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
export class SessionCodes {
  private readonly live = new Map<string, { expires: number; gone?: () => void }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 64,
  ) {}

  /** A new code, good once for `ttlMs`; `gone` is called once it is traded, pushed out or found expired. */
  mint(ttlMs: number, gone?: () => void): string {
    this.prune();
    while (this.live.size >= this.max) {
      const oldest = this.live.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
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
    this.forget(found);
    return true;
  }

  /** Forgets the codes whose time is up (a timer calls this at a code's end, so its `gone` runs then). */
  expireDue(): void {
    this.prune();
  }

  /** Forgets every code (serve stops). */
  clear(): void {
    for (const code of [...this.live.keys()]) this.forget(code);
  }

  private forget(code: string): void {
    const gone = this.live.get(code)?.gone;
    this.live.delete(code);
    gone?.();
  }

  private prune(): void {
    const now = this.now();
    for (const [code, { expires }] of this.live) if (now > expires) this.forget(code);
  }
}

const ExchangeSchema = z.object({ code: z.string().min(1).max(512) });

/** `POST /session` (no token needed: it is how the page gets one): a live code for the session token. */
export function sessionRoute(app: FastifyInstance, codes: SessionCodes, token: string): void {
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
        remedy: 'Open the address `dubdesk serve` printed, or start `dubdesk serve` again for a new one.',
      });
    return sendValue(reply, { token });
  });
}

import type { FastifyInstance } from 'fastify';
import { ROUTES, type MediaToken } from '../../shared/serve-protocol';
import { sendValue } from './replies';
import { newToken, sameToken } from './token';

/**
 * Tokens for media URLs. <video src>, <track src> and a download link cannot send an Authorization header,
 * so they carry a token in the query string, and that token is NOT the session token. There are two kinds,
 * each a MediaTokens of its own: the preview's (`?mt=`, plays a job's media) and the download links'
 * (`?dt=`, downloads a job's files and the results zip); neither opens the other's routes (guard.ts).
 * - a URL sits in the DOM, and a user may "copy video address" and paste it anywhere; a media token
 *   read from such a URL only plays this session's media, it can neither download results, drive the
 *   queue, change the settings nor stage files;
 * - it is minted by an authenticated call and lapses after an hour without use (a preview being watched
 *   keeps its URL alive; a forgotten one dies), and `serve` stopping forgets them all;
 * - it is never logged: the server logs request paths without their query.
 * The session token itself never appears in a URL (the page trades the address's one-time code for it,
 * see session-codes.ts, then sends it in the Authorization header).
 */
export class MediaTokens {
  private readonly live = new Map<string, number>();

  constructor(
    private readonly idleMs = 60 * 60 * 1000,
    private readonly max = 32,
    private readonly now: () => number = Date.now,
  ) {}

  mint(): { token: string; idleSeconds: number } {
    this.prune();
    // A page reloaded many times mints many tokens: the oldest go first.
    while (this.live.size >= this.max) {
      const oldest = this.live.keys().next().value;
      if (oldest === undefined) break;
      this.live.delete(oldest);
    }
    const token = newToken();
    this.live.set(token, this.now());
    return { token, idleSeconds: this.idleMs / 1000 };
  }

  /** Checks `given` against every live token in constant time each; a match is used again now. */
  use(given: string | undefined): boolean {
    this.prune();
    let found: string | undefined;
    for (const token of this.live.keys()) if (sameToken(given, token)) found = token;
    if (found === undefined) return false;
    this.live.delete(found);
    this.live.set(found, this.now());
    return true;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, usedAt] of this.live) if (now - usedAt > this.idleMs) this.live.delete(token);
  }
}

/** `POST /api/media-token` (behind the session token, like all of /api): a preview and a download token. */
export function mediaTokenRoute(app: FastifyInstance, preview: MediaTokens, downloads: MediaTokens): void {
  app.post(ROUTES.mediaToken, async (_req, reply) => {
    const value: MediaToken = { ...preview.mint(), download: downloads.mint().token };
    return sendValue(reply, value);
  });
}

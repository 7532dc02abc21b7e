import type { ServerResponse } from 'node:http';
import { route, type Route } from '../http';
import type { SandboxService } from '../service';

export const PRESENCE_PATH = '/__sandbox/presence';

/**
 * Answered with headers only and held open for as long as this sandbox runs. Another process that uses
 * this sandbox (the built-in one of a shared home) keeps one open, and so learns the moment it stops or
 * dies, without polling. Any account's key may ask.
 */
export function presenceRoutes(svc: SandboxService, held: Set<ServerResponse>): Route[] {
  return [
    route('GET', PRESENCE_PATH, 'public', (ctx) => {
      svc.authenticate(ctx.req, 'v2');
      held.add(ctx.res);
      ctx.res.on('close', () => held.delete(ctx.res));
      ctx.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      ctx.res.flushHeaders();
    }),
  ];
}

import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerOptions } from 'node:http';

/**
 * How long a request may stall on its way in: its headers must all arrive within `headersMs` of the first
 * byte, and its body must not go quiet for `bodyMs`. Answers are not limited: a paused video or a "Save as"
 * dialog over a download may hold a reply a long time, and serve only writes when the reader asks.
 */
export interface IdleTimeouts {
  headersMs: number;
  bodyMs: number;
}

export const IDLE_TIMEOUTS: IdleTimeouts = { headersMs: 20_000, bodyMs: 60_000 };

/**
 * Node's own headers deadline (enforced whatever the token: a request that never finishes its headers is
 * answered 408 and closed), looked at often enough to keep it. No deadline on the whole request: an upload
 * over a slow line may take as long as it moves.
 */
export function headersDeadline(t: IdleTimeouts): ServerOptions {
  return {
    headersTimeout: t.headersMs,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(t.headersMs / 4))),
  };
}

/** Whether a request says a body follows its headers. */
function hasBody(req: IncomingMessage): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return req.headers['transfer-encoding'] !== undefined || (Number.isFinite(length) && length > 0);
}

/**
 * A body that goes quiet for `bodyMs` closes its connection, before any route (the token's check included)
 * sees it: a stalled upload then fails like a cut one and frees its staging slot. The limit lasts until the
 * body's end; the connection's keep-alive wait is Node's own after that. An answer given before its body
 * arrived (a refusal) closes the connection: Node would otherwise wait the keep-alive time for the rest.
 */
export function bodyIdleLimit(app: FastifyInstance, bodyMs: number): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const raw = req.raw;
    const socket = raw.socket;
    if (hasBody(raw)) {
      const stalled = () => socket.destroy();
      socket.setTimeout(bodyMs, stalled);
      raw.once('end', () => socket.setTimeout(0, stalled));
    }
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (hasBody(req.raw) && !req.raw.complete) void reply.header('connection', 'close');
    done(null, payload);
  });
}

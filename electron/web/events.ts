import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { EngineEvent } from '../../shared/contract/events';
import type { DubdeskApi } from '../../shared/contract/methods';
import { HEARTBEAT_HEADER, ROUTES } from '../../shared/serve-protocol';

/** Keeps proxies and idle timers from closing a quiet stream, and shows a dead client soon. */
const HEARTBEAT_MS = 15_000;
/** What a browser waits before reconnecting after the stream broke. */
const RETRY_MS = 2_000;
/** A client this far behind is dropped rather than buffered without end; it reconnects and refetches. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface EventStreams {
  /** Streams open now. */
  readonly size: number;
  /** Ends every stream cleanly (the server is stopping). */
  closeAll(): void;
}

/**
 * `GET /api/events`: Server-Sent Events, one engine subscription per stream, so `seq` restarts at 1 for
 * every (re)connection and a client that sees it restart fetches what it shows again. A stream ends its
 * subscription when the client goes away.
 */
export function eventRoutes(app: FastifyInstance, api: DubdeskApi, heartbeatMs = HEARTBEAT_MS): EventStreams {
  const open = new Set<() => void>();

  app.get(ROUTES.events, (_req, reply) => {
    reply.hijack();
    const res: ServerResponse = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      [HEARTBEAT_HEADER]: String(heartbeatMs),
    });
    res.write(`retry: ${RETRY_MS}\n\n`);

    let ended = false;
    let unsubscribe = () => {};
    const heartbeat = setInterval(() => {
      if (!ended) res.write(': heartbeat\n\n');
    }, heartbeatMs);
    heartbeat.unref();
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      open.delete(end);
      res.end();
    };
    const send = (event: EngineEvent) => {
      if (ended) return;
      if (res.writableLength > MAX_BUFFERED_BYTES) return end();
      res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    unsubscribe = api.subscribe(send);
    open.add(end);
    // The response's close, not the request's: a GET's request "closes" as soon as it has been read.
    res.on('close', end);
    res.on('error', end);
  });

  return {
    get size() {
      return open.size;
    },
    closeAll() {
      for (const end of [...open]) end();
    },
  };
}

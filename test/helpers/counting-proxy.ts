import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request that went through: when it started and ended (ms, wall clock), and where to. */
export interface Span {
  start: number;
  end: number | null;
  method: string;
  path: string;
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`: use it as the service's base URL. */
  url: string;
  spans: Span[];
  /** The most requests in flight at once at any moment in [from, to]. */
  maxInFlight(from: number, to: number): number;
  close(): Promise<void>;
}

/**
 * A plain HTTP relay in front of a server that counts what goes through it: how many requests, and how many
 * at once. It passes bodies both ways as they come and a dropped connection on either side as a dropped
 * connection on the other, so fault injection behind it reaches the client unchanged.
 */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const spans: Span[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const span: Span = { start: Date.now(), end: null, method: req.method ?? '', path: req.url ?? '' };
    spans.push(span);
    // The client went away (or the answer ended): the request behind it goes too.
    res.on('close', () => {
      span.end ??= Date.now();
      if (!res.writableFinished) up.destroy();
    });
    const up = request(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
        answer.on('aborted', () => res.socket?.destroy());
        answer.on('error', () => res.socket?.destroy());
      },
    );
    up.on('error', () => res.socket?.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    maxInFlight(from, to) {
      const events = spans
        .filter((s) => s.start <= to && (s.end ?? Infinity) >= from)
        .flatMap((s) => [
          { at: Math.max(s.start, from), d: 1 },
          { at: Math.min(s.end ?? to, to), d: -1 },
        ])
        .sort((a, b) => a.at - b.at || b.d - a.d);
      let now = 0;
      let most = 0;
      for (const e of events) most = Math.max(most, (now += e.d));
      return most;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

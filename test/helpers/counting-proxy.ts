import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request that went through: when it started and ended (ms, wall clock), and where to. */
export interface Span {
  start: number;
  end: number | null;
  method: string;
  path: string;
  /** Its 2xx answer was spoiled on the way back (see `Spoil`). */
  spoiled: boolean;
}

/** How a 2xx answer is spoiled on its way back: its body rewritten, or cut after half of it (the line drops). */
export type Spoil = ((body: string) => string) | 'cut';

export interface ProxyOptions {
  /** Which answers to spoil and how; undefined relays the answer as it is. */
  spoil?: (method: string, path: string) => Spoil | undefined;
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`: use it as the service's base URL. */
  url: string;
  spans: Span[];
  /** The most requests in flight at once at any moment in [from, to]. */
  maxInFlight(from: number, to: number): number;
  close(): Promise<void>;
}

async function spoilAnswer(answer: IncomingMessage, res: ServerResponse, spoil: Spoil): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of answer) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  if (spoil === 'cut') {
    res.writeHead(answer.statusCode ?? 200, {
      'content-type': 'application/json',
      'content-length': body.length,
    });
    res.write(body.subarray(0, body.length >> 1), () => res.socket?.destroy());
    return;
  }
  const text = spoil(body.toString('utf8'));
  res.writeHead(answer.statusCode ?? 200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * A plain HTTP relay in front of a server that counts what goes through it: how many requests, and how many
 * at once. It passes bodies both ways as they come and a dropped connection on either side as a dropped
 * connection on the other, so fault injection behind it reaches the client unchanged. `spoil` makes it a
 * hostile middle: chosen 2xx answers reach the client broken although the server behind did its work.
 */
export async function countingProxy(target: string, options: ProxyOptions = {}): Promise<CountingProxy> {
  const { hostname, port } = new URL(target);
  const spans: Span[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const span: Span = {
      start: Date.now(),
      end: null,
      method: req.method ?? '',
      path: req.url ?? '',
      spoiled: false,
    };
    spans.push(span);
    // The client went away (or the answer ended): the request behind it goes too.
    res.on('close', () => {
      span.end ??= Date.now();
      if (!res.writableFinished) up.destroy();
    });
    const up = request(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        const status = answer.statusCode ?? 502;
        const spoil = status >= 200 && status < 300 ? options.spoil?.(span.method, span.path) : undefined;
        if (spoil) {
          span.spoiled = true;
          return void spoilAnswer(answer, res, spoil).catch(() => res.socket?.destroy());
        }
        res.writeHead(status, answer.rawHeaders);
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

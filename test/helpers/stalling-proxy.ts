import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTES } from '../../shared/serve-routes';

/**
 * An HTTP proxy the browser goes through (a context's `proxy`), as a corporate proxy or a flaky network
 * path is: it passes everything, until told to stall the event streams open at that moment. A stalled
 * stream's connection stays open, but no byte of it reaches the browser any more: a half-open connection,
 * as a laptop that slept or a proxy that dropped it silently leaves.
 */
export interface StallingProxy {
  /** For a browser context's `proxy.server`. */
  readonly server: string;
  /** Event streams that went through so far. */
  readonly streams: number;
  /** Event streams closed by the browser. */
  readonly closedByBrowser: number;
  /** The event streams open now pass no more bytes; streams opened later pass as before. */
  stallOpenStreams(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

function forwarded(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name)));
}

export async function stallingProxy(): Promise<StallingProxy> {
  let streams = 0;
  let closedByBrowser = 0;
  const open = new Set<{ stalled: boolean }>();
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/');
    const isStream = target.pathname === ROUTES.events;
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: forwarded(req.headers),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwarded(answer.headers));
        if (!isStream) return void answer.pipe(res);
        streams++;
        const stream = { stalled: false };
        open.add(stream);
        answer.on('data', (chunk: Buffer) => {
          if (!stream.stalled) res.write(chunk);
        });
        answer.on('end', () => res.end());
        res.on('close', () => {
          open.delete(stream);
          if (!answer.complete) closedByBrowser++;
          answer.destroy();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    get streams() {
      return streams;
    },
    get closedByBrowser() {
      return closedByBrowser;
    },
    stallOpenStreams() {
      for (const s of open) s.stalled = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

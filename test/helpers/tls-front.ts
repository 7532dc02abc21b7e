/**
 * A company network in miniature, on loopback: an HTTPS front for a sandbox, whose certificate
 * (`service.dubdesk.test`) is signed by a root only the test's stand-in trust store knows, as a
 * TLS-inspecting proxy's root is known only to the system's store; and an HTTP proxy that takes CONNECT
 * tunnels, the only way to reach that name (it resolves nowhere else).
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';

const tls = join(__dirname, '..', 'fixtures', 'tls');
export const SERVICE_HOST = 'service.dubdesk.test';
export const TEST_ROOT = readFileSync(join(tls, 'ca.pem'), 'utf8');

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

/** HTTPS on loopback, relaying every request to `origin` (the sandbox's plain HTTP). */
export async function httpsFront(origin: string): Promise<{ port: number; close(): Promise<void> }> {
  const to = new URL(origin);
  const server = createHttpsServer(
    { key: readFileSync(join(tls, 'service-key.pem')), cert: readFileSync(join(tls, 'service.pem')) },
    (req, res) => {
      const relay = request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      relay.on('error', () => res.destroy());
      req.pipe(relay);
    },
  );
  const port = await listen(server);
  return { port, close: () => new Promise((r) => server.close(() => r())) };
}

/** An HTTP proxy taking CONNECT tunnels to any name, all of them to `port` on loopback; it counts them. */
export async function connectProxy(
  port: number,
): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((_req, res) => {
    res.statusCode = 405;
    res.end('CONNECT only');
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      s.on('close', () => sockets.delete(s));
    }
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return {
    url,
    tunnels,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

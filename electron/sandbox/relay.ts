import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface Relay {
  /** `http://127.0.0.1:PORT`: talk to the sandbox here, whoever runs it at the moment. */
  readonly url: string;
  close(): Promise<void>;
}

/** How long one connection may wait for a sandbox to answer again (an owner leaving, another taking over). */
const WAIT_MS = 60_000;

function dial(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const up = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    up.once('connect', () => {
      up.off('error', reject);
      resolve(up);
    });
    up.once('error', reject);
  });
}

/**
 * A loopback TCP relay to the sandbox of another process. A connection that finds it gone (its owner
 * left) waits for `target` to name the one that took over instead of failing, so a command that was
 * using the sandbox sees a slow answer, not a refused connection. A connection cut in the middle stays
 * cut: only the call in flight at that moment fails.
 */
export async function startRelay(target: () => Promise<string>, refused: () => void): Promise<Relay> {
  const sockets = new Set<Socket>();
  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    // These serve this process's own calls, which hold it alive themselves while they need to.
    client.unref();
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const deadline = Date.now() + WAIT_MS;
      for (let delay = 20; !client.destroyed; delay = Math.min(delay * 2, 500)) {
        const up = await target()
          .then(dial)
          .catch(() => null);
        if (up) {
          up.unref();
          up.on('error', () => client.destroy());
          client.on('close', () => up.destroy());
          up.on('close', () => client.destroy());
          client.pipe(up).pipe(client);
          client.resume();
          return;
        }
        refused();
        if (Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, delay));
      }
      client.destroy();
    })().catch(() => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The relay serves this process's own calls: it must not keep a finished command alive.
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

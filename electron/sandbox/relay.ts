import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface Relay {
  /** `http://127.0.0.1:PORT`: talk to the sandbox here, whoever runs it at the moment. */
  readonly url: string;
  close(): Promise<void>;
}

/** How long one connection may wait for a sandbox to answer again (an owner leaving, another taking over). */
const WAIT_MS = 60_000;
/** A request kept for sending again is a short one (a GET's head); anything longer is never replayed. */
const REPLAY_MAX = 64 * 1024;

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
 * using the sandbox sees a slow answer, not a refused connection. A request the old owner closed the line
 * on without answering a byte (a kept-alive connection it closed as it left) is sent again to the next
 * one when it only reads (GET, HEAD): a call that may have changed something is never sent twice.
 */
export async function startRelay(target: () => Promise<string>, refused: () => void): Promise<Relay> {
  const sockets = new Set<Socket>();
  /** The sandbox now, waiting for one to answer; null when none did in time. */
  const reach = async (client: Socket): Promise<Socket | null> => {
    const deadline = Date.now() + WAIT_MS;
    for (let delay = 20; !client.destroyed; delay = Math.min(delay * 2, 500)) {
      const up = await target()
        .then(dial)
        .catch(() => null);
      if (up) return up;
      refused();
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, delay));
    }
    return null;
  };
  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    // These serve this process's own calls, which hold it alive themselves while they need to.
    client.unref();
    client.on('error', () => client.destroy());
    /**
     * What the client sent since the sandbox last answered, while it is a short request that only reads;
     * null once it is anything else (never kept, never sent again).
     */
    let unanswered: Buffer[] | null = [];
    let up: Socket | null = null;
    const attach = (next: Socket) => {
      up = next;
      next.unref();
      next.on('data', (d: Buffer) => {
        unanswered = [];
        client.write(d);
      });
      next.on('error', () => {});
      next.on('close', () => {
        if (up !== next || client.destroyed) return;
        if (!unanswered?.length) {
          client.destroy();
          return;
        }
        up = null;
        void reach(client).then((again) => {
          if (!again) return client.destroy();
          attach(again);
          if (unanswered) again.write(Buffer.concat(unanswered));
        });
      });
    };
    client.on('data', (d: Buffer) => {
      if (unanswered) {
        const kept = unanswered.reduce((n, b) => n + b.length, 0) + d.length;
        const reads = /^(GET|HEAD) /.test(Buffer.concat([...unanswered, d]).toString('latin1', 0, 5));
        unanswered = reads && kept <= REPLAY_MAX ? [...unanswered, d] : null;
      }
      if (up) up.write(d);
      else if (!unanswered) client.destroy(); // between two sandboxes, and not a request that may go again
    });
    client.on('close', () => {
      sockets.delete(client);
      up?.destroy();
    });
    void reach(client)
      .then((first) => {
        if (!first) return client.destroy();
        attach(first);
        client.resume();
      })
      .catch(() => client.destroy());
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

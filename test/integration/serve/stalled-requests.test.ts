/**
 * Requests that stop half-way must not hold `dubdesk serve` for ever: four stalled uploads took every
 * upload slot (all later uploads 429 until a restart), and a request whose headers, or whose body, never
 * finish stayed open, with a token or without. Headers and bodies have idle limits; a stalled upload ends
 * and frees its slot.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { bearer, heldUpload, raw, serveFor, type Served } from '../../helpers/serve';

/** A raw connection that writes `text` and then nothing more; resolves with what came back once the server closes it. */
function stalled(port: number, text: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (d: Buffer) => received.push(d));
  socket.on('error', () => {});
  socket.write(text);
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1'))),
  );
  return { socket, closed };
}

describe('dubdesk serve: requests that stop half-way', () => {
  let sb: Sandbox;
  let s: Served;
  const open: Socket[] = [];

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    s = await serveFor(sb, { idleTimeouts: { headersMs: 500, bodyMs: 500 } });
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    await s?.close();
    await sb?.stop();
  });

  it('four stalled uploads end on their own and free their slots: the next upload goes in', async () => {
    const held = [1, 2, 3, 4].map(() => heldUpload(s.server.port, s.server.token, 1_000_000));
    try {
      await vi.waitFor(
        async () => {
          const r = await raw(s.server.port, 'POST', '/staging?name=after.mp4', {
            headers: { ...bearer(s.server.token), 'content-type': 'application/octet-stream' },
            body: Buffer.alloc(1000, 1),
          });
          expect(r.status).toBe(200);
        },
        { timeout: 20_000, interval: 200 },
      );
    } finally {
      for (const h of held) h.req.destroy();
    }
  });

  it('a request whose headers never finish is closed, without a token', async () => {
    const half = stalled(s.server.port, 'POST /api/listJobs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    open.push(half.socket);
    expect(await half.closed).toMatch(/^(HTTP\/1\.1 408|)/);
  });

  it('a request whose body never finishes is closed, without a token and with one', async () => {
    for (const auth of ['', `Authorization: Bearer ${s.server.token}\r\n`]) {
      const half = stalled(
        s.server.port,
        `POST /api/listJobs HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"off`,
      );
      open.push(half.socket);
      await half.closed;
    }
  });
});

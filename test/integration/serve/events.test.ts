import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, EventListener } from '../../../shared/contract/events';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { startServer, type DubdeskServer } from '../../../electron/web/server';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { createWebBridge, type WebBridge } from '../../../renderer/src/bridge/web';
import { engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';
import { bearer } from '../../helpers/serve';

/** The engine's api, counting its live subscriptions (what serve must hand back when a client leaves). */
function counted(api: DubdeskApi): { api: DubdeskApi; subscribers: () => number } {
  let live = 0;
  return {
    api: {
      ...api,
      subscribe: (listener: EventListener) => {
        live++;
        const stop = api.subscribe(listener);
        let stopped = false;
        return () => {
          if (stopped) return;
          stopped = true;
          live--;
          stop();
        };
      },
    },
    subscribers: () => live,
  };
}

/** An event stream read by hand: what arrived so far, and a way to cut the connection abruptly. */
function rawStream(server: DubdeskServer) {
  const got = { text: '', ended: false, status: 0 };
  const req = request({
    host: '127.0.0.1',
    port: server.port,
    path: '/api/events',
    headers: { host: `127.0.0.1:${server.port}`, ...bearer(server.token) },
  });
  req.on('response', (res) => {
    got.status = res.statusCode ?? 0;
    res.on('data', (d: Buffer) => (got.text += d.toString()));
    res.on('end', () => (got.ended = true));
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  return { got, cut: () => req.destroy() };
}

describe('dubdesk serve: events over SSE', () => {
  let sb: Sandbox;
  let host: ReturnType<typeof engineFor>;
  let engine: ReturnType<typeof counted>;
  let server: DubdeskServer;
  const clients: WebBridge[] = [];
  const client = () => {
    const c = createWebBridge({ baseUrl: server.origin, token: server.token });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
    host = engineFor(sb, tempDir());
    engine = counted(host.api);
    server = await startServer({
      engine: { api: engine.api, home: host.home },
      port: 0,
      rendererDir: null,
      heartbeatMs: 50,
    });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    await host?.close();
    await sb?.stop();
  });

  it('delivers job events in order to two clients at once', async () => {
    const [one, two] = [client(), client()];
    const heard: [EngineEvent[], EngineEvent[]] = [[], []];
    const stops = [one.subscribe((e) => heard[0].push(e)), two.subscribe((e) => heard[1].push(e))];
    await waitFor('two streams', async () => (server.events.size === 2 ? true : undefined));
    const { added } = await one.add({
      inputs: [videoMp4(2, 'events-a.mp4'), videoMp4(3, 'events-b.mp4')],
      to: ['es', 'fr'],
      outDir: tempDir(),
    });
    expect(await host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    const order = ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed'];
    const lives = (events: EngineEvent[]) =>
      added.map((id) => events.flatMap((e) => (e.type === 'job' && e.job.id === id ? [e.job.state] : [])));
    await waitFor('every job completed on both streams', async () =>
      heard.every((events) => lives(events).every((states) => states.at(-1) === 'completed'))
        ? true
        : undefined,
    );
    for (const events of heard) {
      // Numbered from 1 without a gap: each stream is a subscription of its own.
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      for (const states of lives(events)) {
        const ranks = states.map((s) => order.indexOf(s));
        expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
      }
    }
    // Both clients heard the same jobs move the same way.
    expect(lives(heard[0])).toEqual(lives(heard[1]));
    for (const stop of stops) stop();
    await waitFor('streams closed', async () => (server.events.size === 0 ? true : undefined));
  });

  it('unsubscribes a client that leaves, politely or not: the engine’s subscribers are back to before', async () => {
    const before = engine.subscribers();
    const c = client();
    const stop = c.subscribe(() => {});
    const also = c.subscribe(() => {}); // listeners of one client share one stream
    await waitFor('one stream', async () => (engine.subscribers() === before + 1 ? true : undefined));
    expect(server.events.size).toBe(1);
    stop();
    expect(engine.subscribers()).toBe(before + 1);
    also();
    await waitFor('unsubscribed', async () => (engine.subscribers() === before ? true : undefined));
    expect(server.events.size).toBe(0);

    // A connection cut without a word (a closed tab, a crashed browser).
    const streams = [rawStream(server), rawStream(server), rawStream(server)];
    await waitFor('three streams', async () => (engine.subscribers() === before + 3 ? true : undefined));
    for (const s of streams) s.cut();
    await waitFor('all gone', async () => (engine.subscribers() === before ? true : undefined));
    expect(server.events.size).toBe(0);
  });

  it('sends a retry hint and heartbeats, and a client that reconnects gets a fresh stream from seq 1', async () => {
    const s = rawStream(server);
    await waitFor('heartbeats', async () =>
      /: heartbeat\n\n.*: heartbeat/s.test(s.got.text) ? true : undefined,
    );
    expect(s.got.status).toBe(200);
    expect(s.got.text.startsWith('retry: 2000\n\n')).toBe(true);
    s.cut();

    const c = client();
    const seqs: number[] = [];
    c.subscribe((e) => seqs.push(e.seq));
    await waitFor('stream', async () => (server.events.size === 1 ? true : undefined));
    await c.pauseQueue(); // totals follow a change within a quarter second
    await waitFor('events', async () => (seqs.length >= 1 ? true : undefined));
    server.events.closeAll(); // the server drops the stream; the client comes back after the retry hint
    await waitFor('reconnected', async () => (server.events.size === 1 ? true : undefined), 10_000);
    const heardBefore = seqs.length;
    await c.resumeQueue();
    await waitFor('an event on the new stream', async () => (seqs.length > heardBefore ? true : undefined));
    expect(seqs[heardBefore]).toBe(1);
  });

  it('ends every stream cleanly when the server stops', async () => {
    const streams = [rawStream(server), rawStream(server)];
    await waitFor('streams', async () => (server.events.size >= 2 ? true : undefined));
    await server.close();
    await waitFor('ended', async () => (streams.every((s) => s.got.ended) ? true : undefined));
    expect(server.events.size).toBe(0);
  });
});

import { Writable } from 'node:stream';
import { startServer, type DubdeskServer, type ServeOptions } from '../../electron/cli/serve/server';
import { openDubdesk, type DubdeskHost } from '../../electron/engine/index';
import type { Sandbox } from '../../electron/sandbox/server';
import { createWebBridge, type WebBridge } from '../../renderer/src/bridge/web';
import { tempDir } from './engine';

/** Everything a request log line said, to check what it never says. */
export class LogSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface Served {
  host: DubdeskHost;
  server: DubdeskServer;
  client: WebBridge;
  log: LogSink;
  close(): Promise<void>;
}

/** `dubdesk serve` in this process: an engine on a fresh home talking to `sb`, fastify on 127.0.0.1:0. */
export async function serveFor(
  sb: Sandbox,
  opts: { apiKey?: string; home?: string } & Partial<Omit<ServeOptions, 'engine' | 'port' | 'log'>> = {},
): Promise<Served> {
  const { apiKey = sb.account.apiKey, home = tempDir(), ...serveOpts } = opts;
  const host = openDubdesk({
    home,
    face: 'web',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    checkOutputs: true,
  });
  const log = new LogSink();
  const server = await startServer({
    engine: host,
    port: 0,
    rendererDir: null,
    log: { stream: log, level: 'info' },
    ...serveOpts,
  });
  const client = createWebBridge({ baseUrl: server.origin, token: server.token });
  return {
    host,
    server,
    client,
    log,
    close: async () => {
      client.close();
      await server.close();
      await host.close();
    },
  };
}

/**
 * The engine behind a company proxy with TLS inspection (issue 30, review item 13): the service is reachable
 * only through a CONNECT proxy (HTTPS_PROXY), and its certificate is signed by a root that only the system's
 * trust store knows (here a stand-in store). The engine goes through the proxy, trusts the store, honours
 * NO_PROXY, never sends loopback through the proxy, and reads NODE_EXTRA_CA_CERTS itself.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { proxyFor, useTrustStore } from '../../../electron/engine/api/network';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { connectProxy, httpsFront, SERVICE_HOST, TEST_ROOT } from '../../helpers/tls-front';

let sb: Sandbox;
let front: Awaited<ReturnType<typeof httpsFront>>;
let proxy: Awaited<ReturnType<typeof connectProxy>>;
const base = `https://${SERVICE_HOST}`;
const legacy = () => `${base}${new URL(sb.legacyUrl).pathname}`;
const clients = () => createServiceClients({ baseUrl: base, legacyUrl: legacy(), apiKey: sb.account.apiKey });
const env = (vars: Record<string, string | undefined>) => {
  for (const k of Object.keys(vars)) Reflect.deleteProperty(process.env, k);
  Object.assign(process.env, Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined)));
};

beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.2, balance: 1000 });
  front = await httpsFront(sb.baseUrl);
  proxy = await connectProxy(front.port);
});
afterAll(async () => {
  await proxy.close();
  await front.close();
  await sb.stop();
});
afterEach(() => {
  env({ HTTPS_PROXY: undefined, HTTP_PROXY: undefined, NO_PROXY: undefined, NODE_EXTRA_CA_CERTS: undefined });
  useTrustStore(null);
  proxy.tunnels.length = 0;
});

describe('behind a company proxy with TLS inspection', () => {
  it('reaches the service through HTTPS_PROXY, trusting a root only the system store knows', async () => {
    env({ HTTPS_PROXY: proxy.url });
    useTrustStore(() => [TEST_ROOT]);
    const engine = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: base, legacyUrl: legacy(), apiKey: sb.account.apiKey },
    });
    try {
      const account = await engine.api.account();
      expect(account.balance).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`${SERVICE_HOST}:443`]));
  });

  it('without the root in the store, refuses the certificate (and says so)', async () => {
    env({ HTTPS_PROXY: proxy.url });
    await expect(clients().v2.me()).rejects.toThrow(
      /its certificate is not trusted here \([A-Z_]+\)\. Behind a company proxy/,
    );
    expect(proxy.tunnels).toEqual([`${SERVICE_HOST}:443`]);
  });

  it('takes the root from NODE_EXTRA_CA_CERTS too, which Electron’s fuses keep from Node', async () => {
    const file = join(tempDir(), 'corporate-root.pem');
    writeFileSync(file, TEST_ROOT);
    env({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: file });
    useTrustStore(() => []);
    await expect(clients().v2.me()).resolves.toBeTruthy();
  });

  it('without the proxy the name resolves nowhere; NO_PROXY sends it direct, so it fails the same', async () => {
    useTrustStore(() => [TEST_ROOT]);
    await expect(clients().v2.me()).rejects.toThrow();
    env({ HTTPS_PROXY: proxy.url, NO_PROXY: `localhost,.dubdesk.test` });
    await expect(clients().v2.me()).rejects.toThrow();
    expect(proxy.tunnels).toEqual([]);
  });

  it('reads the system store only for HTTPS: plain HTTP to the built-in sandbox pays nothing for it', async () => {
    let reads = 0;
    useTrustStore(() => {
      reads++;
      return [TEST_ROOT];
    });
    await createServiceClients({
      baseUrl: sb.baseUrl,
      legacyUrl: sb.legacyUrl,
      apiKey: sb.account.apiKey,
    }).v2.me();
    expect(reads).toBe(0);
    env({ HTTPS_PROXY: proxy.url });
    await clients().v2.me();
    await clients().v2.me();
    expect(reads).toBe(1);
  });

  it('never sends loopback through the proxy (the built-in sandbox)', () => {
    env({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
    expect(proxyFor('http', '127.0.0.1:4000')).toBe('');
    expect(proxyFor('https', 'localhost')).toBe('');
    expect(proxyFor('http', '[::1]:4000')).toBe('');
    expect(proxyFor('https', SERVICE_HOST)).toBe(proxy.url);
  });
});

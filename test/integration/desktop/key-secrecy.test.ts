/**
 * The API key, typed into the app's settings, works a full batch (v2, and v1 with its pre-signed upload)
 * and is then searched for everywhere it must never be: every IPC message to the page, every message from
 * the engine's process, the SQLite files, the log files, error messages, and pre-signed requests.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceBridge } from '../../../shared/face';
import { EngineClient, type EngineChild } from '../../../electron/main/engine-client';
import { registerContractIpc } from '../../../electron/main/ipc';
import { isTrustedSender, RENDERER_URL } from '../../../electron/main/trust';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineChild, fake } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

const KEY = 'sk-desktop-secret-7f3a9c2e41';
const WRONG = 'sk-wrong-key-0d9e8b7a';

interface Sent {
  method: string;
  url: string;
  headers: string;
}
const requests: Sent[] = [];
/** Node's report of a request made by the HTTP client (got uses it): its method, address and headers. */
interface RequestStart {
  request: ClientRequest;
}
const onRequest = (message: unknown) => {
  const { request } = message as RequestStart;
  requests.push({
    method: request.method,
    url: `${request.protocol}//${request.host}${request.path}`,
    headers: JSON.stringify(request.getHeaders()),
  });
};

let sb: Sandbox;
let engine: EngineClient;
let bridge: FaceBridge;
let home: string;
const errors: string[] = [];

beforeAll(async () => {
  subscribe('http.client.request.start', onRequest);
  sb = await startSandbox({ pipelineSeconds: 0.2, balance: 1000, apiKey: KEY });
  home = tempDir();
  const { ipcMain } = await import('electron');
  engine = new EngineClient(() => engineChild() as unknown as EngineChild, {
    home,
    appVersion: '0.1.0',
    keyStore: 'system',
    sandbox: null,
    backoff: { baseMs: 50, capMs: 400 },
  });
  await engine.start();
  const page = fake.openPage(RENDERER_URL);
  registerContractIpc(ipcMain, engine.api, (e) => isTrustedSender(e, () => [page.contents]));
  await import('../../../electron/main/preload');
  bridge = fake.exposed.dubdesk as FaceBridge;
});

afterAll(async () => {
  unsubscribe('http.client.request.start', onRequest);
  await engine?.stop(1000);
  await sb?.stop();
});

const failure = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (e) {
    errors.push(JSON.stringify(e), String((e as Error).message));
    return e as { code: string };
  }
  throw new Error('expected a failure');
};

describe('the API key', () => {
  it('is typed in the settings, checked, and kept (here: in the file the user agreed to)', async () => {
    expect(await failure(bridge.testKey({ apiKey: WRONG, baseUrl: sb.baseUrl }))).toMatchObject({
      code: 'auth',
    });
    expect((await bridge.testKey({ apiKey: KEY, baseUrl: sb.baseUrl })).balance).toBe(1000);
    const settings = await bridge.getSettings();
    if (settings.service.keyStorage?.needsConsent) {
      expect(
        await failure(
          bridge.setSettings({ service: { apiKey: KEY, baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl } }),
        ),
      ).toMatchObject({ code: 'config' });
    }
    const saved = await bridge.setSettings({
      service: { apiKey: KEY, baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, allowFileKeyStore: true },
    });
    expect(saved.service).toMatchObject({ apiKeySet: true, apiKeyHint: '…2e41' });
    // A rejected key on the real service later says so without repeating it.
    await failure(bridge.testKey({ apiKey: `${WRONG}-2`, baseUrl: sb.baseUrl }));
  });

  it('works a full batch through v2 and v1 (a pre-signed upload)', async () => {
    const out = tempDir();
    await bridge.add({ inputs: [videoMp4(2, 'secret-a.mp4')], to: ['es', 'fr'], outDir: out });
    await bridge.add({ inputs: [videoMp4(2, 'secret-b.mp4')], to: ['de'], outDir: out, api: 'v1' });
    await vi.waitFor(async () => expect((await bridge.totals()).left).toBe(0), { timeout: 50_000 });
    const { jobs } = await bridge.listJobs({});
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    for (const j of jobs) await bridge.jobLog({ id: j.id });
  });

  it('never reached the page, the engine’s answers, SQLite, the logs, or an error message', () => {
    const toPage = fake.crossings.filter((c) => c.route === 'main->page');
    expect(toPage.length).toBeGreaterThan(20);
    for (const c of toPage) expect(String(JSON.stringify(c.data)), c.channel).not.toContain(KEY);
    const fromEngine = fake.crossings.filter((c) => c.route === 'engine->main');
    for (const c of fromEngine) expect(String(JSON.stringify(c.data)), c.channel).not.toContain(KEY);
    // The only way in: the user typing it, to the main process (and on to the engine).
    const fromPage = fake.crossings.filter(
      (c) => c.route === 'page->main' && String(JSON.stringify(c.data)).includes(KEY),
    );
    expect(new Set(fromPage.map((c) => c.channel))).toEqual(
      new Set(['dubdesk:testKey', 'dubdesk:setSettings']),
    );

    const dbFiles = readdirSync(home).filter((f) => f.startsWith('dubdesk.db'));
    expect(dbFiles).toContain('dubdesk.db');
    for (const f of dbFiles) expect(readFileSync(join(home, f)).includes(KEY), f).toBe(false);
    const logs = readdirSync(join(home, 'logs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const f of logs) {
      const text = readFileSync(join(home, 'logs', f), 'utf8');
      expect(text, f).not.toContain(KEY);
      expect(text, f).not.toContain(WRONG);
    }
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      expect(e).not.toContain(KEY);
      expect(e).not.toContain(WRONG);
    }
  });

  it('was sent to the service’s API only, never with a pre-signed request', () => {
    const presigned = requests.filter((r) => r.url.includes('X-Amz-Signature'));
    expect(presigned.length).toBeGreaterThan(0);
    for (const r of presigned) {
      expect(r.url).not.toContain(KEY);
      expect(r.headers).not.toContain(KEY);
    }
    expect(requests.some((r) => r.headers.includes(KEY))).toBe(true);
  });
});

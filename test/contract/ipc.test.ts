/**
 * The contract over Electron's IPC: the real preload (window.dubdesk through the context bridge), the real
 * main-process handlers, and the engine in its (here in-process) utility process, with every value crossing
 * by structured clone as Electron does. `electron` itself is a fake (test/helpers/electron-fake.ts).
 */
import { expect, vi } from 'vitest';
import type { FaceBridge } from '../../shared/face';
import { EngineClient, type EngineChild } from '../../electron/main/engine-client';
import { registerContractIpc } from '../../electron/main/ipc';
import { isTrustedSender, RENDERER_URL } from '../../electron/main/trust';
import { engineChild, fake } from '../helpers/electron-fake';
import { tempDir } from '../helpers/temp-dir';
import { contractSuite } from './suite';

vi.mock('electron', async () => (await import('../helpers/electron-module')).electronModule());

contractSuite('IPC (Electron)', async (sb, { apiKey }) => {
  const { ipcMain } = await import('electron');
  const engine = new EngineClient(() => engineChild() as unknown as EngineChild, {
    home: tempDir(),
    appVersion: '0.1.0',
    keyStore: 'file',
    sandbox: null,
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    checkOutputs: true,
  });
  await engine.start();
  // The suite works the queue when it says so: until then nothing starts.
  engine.hold(true);
  const page = fake.openPage(RENDERER_URL);
  registerContractIpc(ipcMain, engine.api, (e) => isTrustedSender(e, () => [page.contents]));
  await import('../../electron/main/preload');
  const bridge = fake.exposed.dubdesk as FaceBridge;
  return {
    api: bridge,
    async runUntilDone() {
      engine.hold(false);
      await vi.waitFor(async () => expect((await engine.api.totals()).left).toBe(0), { timeout: 50_000 });
      return 'done';
    },
    close: () => engine.stop(2000),
  };
});

import { existsSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { bearer, raw, serveFor, type Served } from '../../helpers/serve';
import { needsKeyAgain } from '../../../renderer/src/components/ServiceSettings';

describe('dubdesk serve: settings that would point Dubdesk at the wrong place', () => {
  let sb: Sandbox;
  let s: Served;

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    s = await serveFor(sb);
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  const setOutDir = (outDir: string) =>
    raw(s.server.port, 'POST', '/api/setSettings', {
      headers: { ...bearer(s.server.token), 'content-type': 'application/json' },
      body: JSON.stringify({ defaults: { outDir } }),
    });

  it('refuses an output folder that is no folder for results, naming it and why', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file.txt');
    writeFileSync(file, 'x');
    symlinkSync('/proc/self', join(dir, 'to-proc'));
    for (const [bad, why] of [
      ['/proc/self', /system folder/],
      ['/proc', /system folder/],
      ['/sys/kernel', /system folder/],
      ['/dev/shm/out', /system folder/],
      [join(dir, 'to-proc'), /system folder/],
      [join(dir, 'to-proc', 'out'), /system folder/],
      [file, /not a folder/],
      [join(file, 'below'), /not a folder/],
    ] as const) {
      const r = await setOutDir(bad);
      expect(r.status, bad).toBe(400);
      expect(r.json(), bad).toMatchObject({
        ok: false,
        error: { code: 'bad-request', message: expect.stringContaining(bad), field: 'defaults.outDir' },
      });
      expect((r.json() as { error: { message: string } }).error.message, bad).toMatch(why);
    }
    const folder = await raw(s.server.port, 'GET', '/api/uploads-folder', {
      headers: bearer(s.server.token),
    });
    expect(JSON.stringify(folder.json())).not.toMatch(/proc|sys|a-file/);

    // A folder of the user's, there or still to be made, is taken.
    const good = join(dir, 'results', 'dubbed');
    expect((await setOutDir(good)).status).toBe(200);
    const after = await raw(s.server.port, 'GET', '/api/uploads-folder', { headers: bearer(s.server.token) });
    expect(after.json()).toMatchObject({ ok: true, value: { path: good } });
  });
});

describe('the queue database’s backups', () => {
  it('are readable by the user alone (0600), like the database', async () => {
    const home = tempDir();
    for (let i = 0; i < 2; i++) {
      const host = openDubdesk({ home, face: 'cli' });
      await host.api.setSettings({ concurrency: 2 + i });
      await host.close();
    }
    const folder = join(home, 'backups');
    expect(existsSync(folder)).toBe(true);
    const backups = readdirSync(folder).filter((n) => n.endsWith('.db'));
    expect(backups.length).toBeGreaterThan(0);
    for (const n of backups) expect(statSync(join(folder, n)).mode & 0o777, n).toBe(0o600);
  });
});

describe('a stored key and a changed address', () => {
  it('names the address that differs: the legacy one, when only it changed', async () => {
    const sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    const host = openDubdesk({ home: tempDir(), face: 'cli' });
    try {
      await host.api.setSettings({
        service: {
          mode: 'service',
          apiKey: sandbox.account.apiKey,
          baseUrl: sandbox.baseUrl,
          legacyUrl: sandbox.legacyUrl,
          allowFileKeyStore: true,
        },
      });
      const elsewhere = 'http://127.0.0.1:1';
      const settings = await host.api.setSettings({ service: { legacyUrl: elsewhere } });
      expect(settings.service.keyEnteredFor).toContain(new URL(sandbox.legacyUrl).origin);
      // The queue stops on it, saying why.
      const message = JSON.stringify((await host.api.totals()).paused);
      expect(message).toContain(`not for ${elsewhere}`);
      expect(message).not.toMatch(/for (http:\/\/[^ ,]+), not for \1"/);
    } finally {
      await host.close();
      await sandbox.stop();
    }
  });
});

describe('back to the address the key was entered for, in one save', () => {
  it('takes mode and address changed together: the check reads the settings after the save', async () => {
    const sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    const host = openDubdesk({ home: tempDir(), face: 'web' });
    try {
      await host.api.setSettings({
        service: {
          mode: 'service',
          apiKey: sandbox.account.apiKey,
          baseUrl: sandbox.baseUrl,
          allowFileKeyStore: true,
        },
      });
      // Pointed elsewhere (the key is not sent there), then the built-in sandbox for a while.
      await host.api.setSettings({ service: { baseUrl: 'http://127.0.0.1:1' } });
      await host.api.setSettings({ service: { mode: 'sandbox' } });
      // One save: the service again, at the address the key was entered for.
      const settings = await host.api.setSettings({
        service: { mode: 'service', baseUrl: sandbox.baseUrl },
      });
      expect(settings.service).toMatchObject({ mode: 'service', apiKeySet: true, keyEnteredFor: null });
      // The page lets that save through too: the form knows where the key was entered for.
      await host.api.setSettings({ service: { mode: 'sandbox' } });
      const form = (baseUrl: string) =>
        ({ mode: 'service', apiKey: '', baseUrl, legacyUrl: '', allowFileKeyStore: false }) as const;
      const inSandbox = await host.api.getSettings();
      expect(needsKeyAgain(form(sandbox.baseUrl), inSandbox)).toBe(false);
      expect(needsKeyAgain(form('https://elsewhere.example'), inSandbox)).toBe(true);
      await host.api.setSettings({ service: { mode: 'service', baseUrl: sandbox.baseUrl } });
      expect((await host.api.account()).balance).toBeGreaterThan(0);
      // The other way round is still refused: the service at an address the key was not entered for.
      await host.api.setSettings({ service: { mode: 'sandbox' } });
      await expect(
        host.api.setSettings({ service: { mode: 'service', baseUrl: 'http://127.0.0.1:1' } }),
      ).rejects.toMatchObject({ code: 'bad-request', field: 'service.apiKey' });
    } finally {
      await host.close();
      await sandbox.stop();
    }
  });
});

import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultHome, openDubdesk } from '../../electron/engine/index';
import { writeStoredService } from '../../electron/engine/keys/service-file';
import { tempDir } from '../helpers/temp-dir';

describe('configuration', () => {
  it('takes the session overrides over the stored settings', async () => {
    const home = tempDir();
    writeStoredService(home, {
      baseUrl: 'http://stored.example',
      legacyUrl: 'http://stored.example/legacy',
      apiKey: 'stored-key',
    });
    const stored = openDubdesk({ home, face: 'cli' });
    expect((await stored.api.getSettings()).service).toMatchObject({
      mode: 'service',
      configured: true,
      baseUrl: 'http://stored.example',
      legacyUrl: 'http://stored.example/legacy',
      apiKeySet: true,
      apiKeyHint: '…-key',
      keyStore: 'file',
    });
    await stored.close();
    const overridden = openDubdesk({
      home,
      face: 'cli',
      service: { baseUrl: 'http://env.example', apiKey: 'env-key' },
    });
    expect((await overridden.api.getSettings()).service).toMatchObject({
      baseUrl: 'http://env.example',
      keyStore: 'env',
    });
    await overridden.close();
  });

  it('refuses the dubbing service without a key, and a service address that is not http(s)', async () => {
    const host = openDubdesk({ home: tempDir(), face: 'web' });
    try {
      await expect(host.api.setSettings({ service: { mode: 'service' } })).rejects.toMatchObject({
        code: 'bad-request',
        field: 'service.apiKey',
        message: 'the dubbing service needs your API key',
      });
      expect((await host.api.getSettings()).service.mode).toBe('sandbox');
      for (const baseUrl of ['ftp://x', 'file:///etc/passwd'])
        await expect(host.api.setSettings({ service: { baseUrl } })).rejects.toMatchObject({
          code: 'bad-request',
        });
      await host.api.setSettings({
        service: { mode: 'service', apiKey: 'key-1234', allowFileKeyStore: true },
      });
      expect((await host.api.getSettings()).service).toMatchObject({ mode: 'service', apiKeySet: true });
    } finally {
      await host.close();
    }
  });

  it('falls back to the built-in sandbox on a first run, and says nothing was configured', async () => {
    const host = openDubdesk({ home: tempDir(), face: 'cli' });
    expect((await host.api.getSettings()).service).toMatchObject({
      mode: 'sandbox',
      configured: false,
      apiKeySet: false,
    });
    await expect(host.api.account()).rejects.toMatchObject({ code: 'config' }); // no sandbox starter given here
    await host.close();
  });

  it('keeps the data folder and everything in it readable by the user only', async () => {
    const home = join(tempDir(), 'home');
    const host = openDubdesk({ home, face: 'cli' });
    await host.api.setSettings({ service: { apiKey: 'secret-key', baseUrl: 'http://127.0.0.1:9' } });
    await host.close();
    expect(statSync(home).mode & 0o777).toBe(0o700);
    for (const f of ['dubdesk.db', 'service.json', join('logs', 'dubdesk.log')])
      expect(statSync(join(home, f)).mode & 0o777, f).toBe(0o600);
  });

  it('names a damaged service.json and the fix, instead of crashing', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'service.json'), '{ not json');
    const host = openDubdesk({ home, face: 'cli' });
    await expect(host.api.getSettings()).rejects.toMatchObject({
      code: 'config',
      message: `${join(home, 'service.json')} is damaged`,
    });
    await host.close();
  });

  it("defaults to the desktop app's data folder on each OS", () => {
    expect(defaultHome({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Dubdesk');
    expect(defaultHome({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.Dubdesk$/);
    expect(defaultHome({}, 'darwin')).toMatch(/Library\/Application Support\/Dubdesk$/);
  });
});

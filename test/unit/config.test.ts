import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultHome, resolveConfig, writeStoredSettings } from '../../electron/engine/config';
import { tempDir } from '../helpers/engine';

describe('configuration', () => {
  it('takes a flag over the environment over stored settings', () => {
    const home = tempDir();
    writeStoredSettings(home, {
      baseUrl: 'http://stored.example',
      legacyUrl: 'http://stored.example/legacy',
      apiKey: 'stored-key',
    });
    expect(statSync(join(home, 'service.json')).mode & 0o777).toBe(0o600);
    expect(resolveConfig({ home }, {})).toEqual({
      home,
      baseUrl: 'http://stored.example',
      legacyUrl: 'http://stored.example/legacy',
      apiKey: 'stored-key',
    });
    expect(
      resolveConfig({ home }, { DUBDESK_BASE_URL: 'http://env.example', DUBDESK_API_KEY: 'env-key' }),
    ).toMatchObject({ baseUrl: 'http://env.example', apiKey: 'env-key' });
    expect(
      resolveConfig({ home, baseUrl: 'http://flag.example' }, { DUBDESK_BASE_URL: 'http://env.example' })
        .baseUrl,
    ).toBe('http://flag.example');
    expect(resolveConfig({}, { DUBDESK_HOME: home }).home).toBe(home);
  });

  it("defaults to the desktop app's data folder on each OS", () => {
    expect(defaultHome({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Dubdesk');
    expect(defaultHome({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.Dubdesk$/);
    expect(defaultHome({}, 'darwin')).toMatch(/Library\/Application Support\/Dubdesk$/);
  });
});

/**
 * The API key in the OS credential store, shared by the app and the CLI; where the system has none, an
 * owner-only file the user agrees to. The OS store is an in-memory stand-in here, except where the real
 * module is loaded to see what this machine offers.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KEYRING_SERVICE,
  loadKeyring,
  openDubdesk,
  systemKeyStore,
  SystemKeyStore,
  type KeyringEntry,
  type OpenKeyringEntry,
} from '../../electron/engine/index';
import { serviceFile } from '../../electron/engine/keys/service-file';
import { writeStoredService } from '../../electron/engine/keys/service-file';
import { CLI } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { spawn } from 'node:child_process';

/** A credential store in memory, keyed like the OS one. */
function memoryKeyring(): { open: OpenKeyringEntry; items: Map<string, string> } {
  const items = new Map<string, string>();
  const open: OpenKeyringEntry = (service, account): KeyringEntry => {
    const id = `${service}/${account}`;
    return {
      getPassword: () => items.get(id) ?? null,
      setPassword: (p) => void items.set(id, p),
      deletePassword: () => items.delete(id),
    };
  };
  return { open, items };
}

/** What a Linux machine without a Secret Service answers. */
const noSecretService: OpenKeyringEntry = () => ({
  getPassword: () => {
    throw new Error('Platform failure: DBus error: set your DBUS_SESSION_BUS_ADDRESS instead');
  },
  setPassword: () => {
    throw new Error('unreachable');
  },
  deletePassword: () => false,
});

const fileText = (home: string) => {
  try {
    return readFileSync(serviceFile(home), 'utf8');
  } catch {
    return '';
  }
};

describe('the OS credential store', () => {
  it('keeps the key under the data folder’s name, never in service.json', () => {
    const home = tempDir();
    const { open, items } = memoryKeyring();
    const store = new SystemKeyStore(home, 'ask', open);
    expect(store.kind).toBe('os');
    expect(store.storage()).toEqual({ store: 'os', osUnavailable: null, needsConsent: false });
    store.set('sk-live-1234567890');
    expect(items.get(`${KEYRING_SERVICE}/${home}`)).toBe('sk-live-1234567890');
    expect(store.get()).toBe('sk-live-1234567890');
    expect(fileText(home)).not.toContain('sk-live');
    store.set(null);
    expect(items.size).toBe(0);
  });

  it('moves a key an older version kept in the file into the OS store', () => {
    const home = tempDir();
    writeStoredService(home, { baseUrl: 'https://svc.example', apiKey: 'sk-old-key-9876' });
    const { open, items } = memoryKeyring();
    const store = new SystemKeyStore(home, 'ask', open);
    expect(store.get()).toBe('sk-old-key-9876');
    expect([...items.values()]).toEqual(['sk-old-key-9876']);
    expect(fileText(home)).not.toContain('sk-old-key');
    expect(fileText(home)).toContain('https://svc.example'); // the rest of the file stays
  });

  it('is what the engine reports and uses: settings say "os", the key never shows', async () => {
    const home = tempDir();
    const { open, items } = memoryKeyring();
    const host = openDubdesk({ home, face: 'electron', keyStore: new SystemKeyStore(home, 'ask', open) });
    const s = await host.api.setSettings({
      service: { apiKey: 'sk-engine-5555', baseUrl: 'https://svc.example' },
    });
    expect(s.service).toMatchObject({ keyStore: 'os', apiKeySet: true, apiKeyHint: '…5555' });
    expect(s.service.keyStorage).toEqual({ store: 'os', osUnavailable: null, needsConsent: false });
    expect(JSON.stringify(s)).not.toContain('sk-engine-5555');
    expect(items.size).toBe(1);
    expect(fileText(home)).not.toContain('sk-engine');
    await host.close();
  });
});

describe('no credential store on this system', () => {
  it('says so, and keeps a new key out of the file until the user agrees', async () => {
    const home = tempDir();
    const store = new SystemKeyStore(home, 'ask', noSecretService, 'linux');
    expect(store.kind).toBe('file');
    // One plain sentence for the user; the system's own words kept for the log.
    expect(store.osUnavailable).toBe('no Secret Service (GNOME Keyring or KWallet) answered in this session');
    expect(store.osDetail).toMatch(/DBUS_SESSION_BUS_ADDRESS/);
    expect(store.storage()).toMatchObject({ store: 'file', needsConsent: true });

    const host = openDubdesk({ home, face: 'electron', keyStore: store });
    const before = await host.api.getSettings();
    expect(before.service.keyStorage).toMatchObject({ store: 'file', needsConsent: true });
    await expect(
      host.api.setSettings({ service: { apiKey: 'sk-file-4321', baseUrl: 'https://svc.example' } }),
    ).rejects.toMatchObject({ code: 'config', field: 'allowFileKeyStore' });
    // Refused before anything was written: not the key, not the address.
    expect(fileText(home)).toBe('');

    const s = await host.api.setSettings({
      service: { apiKey: 'sk-file-4321', baseUrl: 'https://svc.example', allowFileKeyStore: true },
    });
    expect(s.service).toMatchObject({ keyStore: 'file', apiKeySet: true });
    expect(s.service.keyStorage).toMatchObject({ store: 'file', needsConsent: false });
    expect(statSync(serviceFile(home)).mode & 0o777).toBe(0o600);
    expect(fileText(home)).toContain('sk-file-4321');

    // Taking the agreement back removes the key from the file.
    await host.api.setSettings({ service: { allowFileKeyStore: false } });
    expect(fileText(home)).not.toContain('sk-file-4321');
    expect((await host.api.getSettings()).service.apiKeySet).toBe(false);
    await host.close();
  });

  it('needs no agreement where the user asked for it (dubdesk login), or where the module cannot load', () => {
    const store = new SystemKeyStore(tempDir(), 'allowed', noSecretService);
    store.set('sk-cli-1111');
    expect(store.get()).toBe('sk-cli-1111');
    const missing = new SystemKeyStore(tempDir(), 'ask', 'the module did not load');
    expect(missing.storage()).toEqual({
      store: 'file',
      osUnavailable: 'the module did not load',
      needsConsent: true,
    });
  });

  it('loads the real keyring module here, and tells what this machine offers', async () => {
    const keyring = await loadKeyring();
    expect(typeof keyring, String(keyring)).toBe('function');
    const store = await systemKeyStore({ home: tempDir(), fileFallback: 'ask' });
    if (store.kind === 'file')
      expect(store.osUnavailable).toMatch(/Secret Service|Keychain|Credential Manager/);
    else expect(store.osUnavailable).toBeNull();
  });

  it('dubdesk login says there is no keychain and saves to the owner-only file; the app then finds the key', async () => {
    const home = tempDir();
    const env: NodeJS.ProcessEnv = { ...process.env, DUBDESK_HOME: home };
    delete env.DUBDESK_KEY_STORE;
    delete env.DUBDESK_API_KEY;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const child = spawn(process.execPath, [CLI, 'login'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end('sk-from-cli-2468\n');
    const code = await new Promise((r) => child.on('close', r));
    expect(code, stderr).toBe(0);
    const store = await systemKeyStore({ home, fileFallback: 'ask' });
    if (store.kind === 'os') {
      expect(stderr).toContain('Saved to the system keychain');
      store.set(null); // a machine with a keyring: leave it as it was
      return;
    }
    expect(stderr).toMatch(
      /No system keychain here: (no Secret Service|the Keychain|the Credential Manager)/,
    );
    expect(stderr).toContain(`Saved to ${join(home, 'service.json')} (readable by you only)`);
    expect(stderr).not.toContain('sk-from-cli');
    expect(store.get()).toBe('sk-from-cli-2468');
    expect(store.storage().needsConsent).toBe(false);
  });
});

import type * as KeyringModule from '@napi-rs/keyring';
import { DubdeskError } from '../../../shared/contract/errors';
import type { KeyStorage } from '../../../shared/contract/settings';
import { FileKeyStore, type KeyStore } from './key-store';
import { readStoredService, writeStoredService } from './service-file';

/** One credential of the OS store, as `@napi-rs/keyring`'s `Entry` offers it. */
export interface KeyringEntry {
  getPassword(): string | null;
  setPassword(password: string): void;
  deletePassword(): boolean;
}
/** Opens the credential `account` of `service`; throws when the system has no store to open it in. */
export type OpenKeyringEntry = (service: string, account: string) => KeyringEntry;

/** The name the key is filed under (its account is the data folder: one key per queue, shared by app and CLI). */
export const KEYRING_SERVICE = 'Dubdesk';

/**
 * Why there is no OS store, in one plain sentence. The system's own words (a D-Bus error about X11
 * autolaunch, a Keychain status code) mean nothing to most users: they go to the log (osDetail).
 */
const NO_STORE: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'the Keychain did not answer',
  win32: 'the Credential Manager did not answer',
  linux: 'no Secret Service (GNOME Keyring or KWallet) answered in this session',
};
export const NO_MODULE = 'the credential store module did not load here';

type Keyring = typeof KeyringModule;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 300);

/**
 * Loads the Node-API keyring module (a prebuilt binary inside its npm package, for Node and Electron alike).
 * A string says why it could not load.
 */
export async function loadKeyring(): Promise<OpenKeyringEntry | string> {
  try {
    // Bundled for Electron (CommonJS), `require` loads it from node_modules (or the unpacked asar); the
    // CLI runs as an ES module and imports it.
    const mod: Keyring =
      typeof require === 'function'
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
          (require('@napi-rs/keyring') as Keyring)
        : await import('@napi-rs/keyring');
    const Entry = mod.Entry ?? (mod as unknown as { default: Keyring }).default.Entry;
    // On Linux, the Secret Service only: the kernel keyring the module would fall back to forgets at logout.
    return (service, account) => new Entry(service, account, { linux: { store: 'secret-service' } });
  } catch (e) {
    return `${NO_MODULE} (${messageOf(e)})`;
  }
}

/** The OS entry, read once and kept: the log scrubs the key from every line it writes and asks for it each time. */
class CachedEntry {
  private value: string | null | undefined;
  private readAt = 0;

  constructor(private readonly entry: KeyringEntry) {}

  get(): string | null {
    // Read again now and then: `dubdesk login` may change the key while the app runs.
    if (this.value === undefined || Date.now() - this.readAt > 10_000) {
      try {
        this.value = this.entry.getPassword();
      } catch (e) {
        throw new DubdeskError('auth', `the system credential store could not be read (${messageOf(e)})`, {
          remedy: 'Unlock the keychain (or keyring) of your session, then try again.',
        });
      }
      this.readAt = Date.now();
    }
    return this.value;
  }

  set(key: string | null): void {
    try {
      if (key) this.entry.setPassword(key);
      else this.entry.deletePassword();
    } catch (e) {
      throw new DubdeskError('auth', `the system credential store did not take the key (${messageOf(e)})`, {
        remedy: 'Unlock the keychain (or keyring) of your session, then save the key again.',
      });
    }
    this.value = key;
    this.readAt = Date.now();
  }
}

export interface SystemKeyStoreOptions {
  home: string;
  /**
   * Where the OS has no credential store: `ask` keeps a new key out of the file until the user agrees (the
   * desktop app asks in its settings); `allowed` means the user already chose it (`dubdesk login`).
   */
  fileFallback: 'ask' | 'allowed';
  /** The keyring to use, or why there is none (tests); `@napi-rs/keyring` by default. */
  keyring?: OpenKeyringEntry | string;
  platform?: NodeJS.Platform;
}

/**
 * The API key in the OS credential store (Keychain, Credential Manager, Secret Service) when the system has
 * one, else in the owner-only `service.json`. A key an older version left in the file moves to the OS store.
 */
export class SystemKeyStore implements KeyStore {
  readonly kind: 'os' | 'file';
  /** Why the OS store is not used, in one plain sentence; null when it is. */
  readonly osUnavailable: string | null;
  /** The system's own words for it (for the log, not for the user); null when there are none. */
  readonly osDetail: string | null;
  private readonly os: CachedEntry | null;
  private readonly file: FileKeyStore;

  constructor(
    private readonly home: string,
    private readonly fallback: 'ask' | 'allowed',
    keyring: OpenKeyringEntry | string,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.file = new FileKeyStore(home);
    let os: CachedEntry | null = null;
    let why: string | null = null;
    let detail: string | null = null;
    if (typeof keyring === 'string') {
      why = keyring.startsWith(NO_MODULE) ? NO_MODULE : keyring;
      detail = keyring;
    } else {
      try {
        os = new CachedEntry(keyring(KEYRING_SERVICE, home));
        os.get(); // a store that exists but cannot answer counts as none
      } catch (e) {
        os = null;
        why = NO_STORE[platform] ?? 'no system credential store answered';
        detail = e instanceof DubdeskError ? e.message : messageOf(e);
      }
    }
    this.os = os;
    this.osUnavailable = why;
    this.osDetail = detail;
    this.kind = os ? 'os' : 'file';
    if (os) this.moveFileKeyToOs(os);
  }

  private moveFileKeyToOs(os: CachedEntry): void {
    const inFile = this.file.get();
    if (!inFile) return;
    try {
      if (!os.get()) os.set(inFile);
      this.file.set(null);
    } catch {
      /* the OS store refused it: the key stays where it was */
    }
  }

  private consented(): boolean {
    return readStoredService(this.home).fileKeyConsent === true;
  }

  get(): string | null {
    return this.os ? this.os.get() : this.file.get();
  }

  set(key: string | null): void {
    if (this.os) {
      this.os.set(key);
      if (this.file.get()) this.file.set(null);
      return;
    }
    if (key && this.storage().needsConsent) throw consentNeeded(this.osUnavailable);
    this.file.set(key);
  }

  /** Records whether the user agrees to the file; taking the agreement back removes a key kept there. */
  allowFile(allowed: boolean): void {
    const { fileKeyConsent: _old, ...rest } = readStoredService(this.home);
    writeStoredService(this.home, allowed ? { ...rest, fileKeyConsent: true } : rest);
    if (!allowed && !this.os) this.file.set(null);
  }

  storage(): KeyStorage {
    const needsConsent =
      this.kind === 'file' && this.fallback === 'ask' && !this.consented() && !this.file.get();
    return { store: this.kind, osUnavailable: this.osUnavailable, needsConsent };
  }
}

export function consentNeeded(why: string | null): DubdeskError {
  return new DubdeskError(
    'config',
    `the API key was not saved: ${why ?? 'this system has no credential store'}`,
    {
      remedy:
        'Agree to keep the key in a file only you can read, or set up a keyring (GNOME Keyring, KWallet) and start Dubdesk again.',
      field: 'allowFileKeyStore',
    },
  );
}

/** The key store a face uses: the OS credential store where there is one, else the owner-only file. */
export async function systemKeyStore(options: SystemKeyStoreOptions): Promise<SystemKeyStore> {
  const keyring = options.keyring ?? (await loadKeyring());
  return new SystemKeyStore(options.home, options.fileFallback, keyring, options.platform);
}

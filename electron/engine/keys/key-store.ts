import type { KeyStorage } from '../../../shared/contract/settings';
import { readStoredService, writeStoredService } from './service-file';

/**
 * Where the API key lives. The engine ships the file store (owner-only `service.json`); a face may bring
 * the OS credential store (Keychain, Credential Manager, Secret Service) with the same interface.
 */
export interface KeyStore {
  readonly kind: 'os' | 'file';
  get(): string | null;
  set(key: string | null): void;
  /** Where a key saved now goes, and whether the user must agree first (a store without a choice omits it). */
  storage?(): KeyStorage;
  /** Records the user's agreement to keep the key in a file (a store that never asks omits it). */
  allowFile?(allowed: boolean): void;
  /** The system's own words for why its credential store is not used: written to the log, not shown. */
  readonly osDetail?: string | null;
}

export class FileKeyStore implements KeyStore {
  readonly kind = 'file' as const;

  constructor(private readonly home: string) {}

  get(): string | null {
    return readStoredService(this.home).apiKey ?? null;
  }

  set(key: string | null): void {
    const { apiKey: _old, ...rest } = readStoredService(this.home);
    writeStoredService(this.home, key ? { ...rest, apiKey: key } : rest);
  }
}

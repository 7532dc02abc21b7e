import type { KeyStore } from '../keys/key-store';

/**
 * The keys the log scrubs from every line. Read at most once a second (not once a line: a batch of 10,000
 * jobs must not read the key store 10,000 times), and at once after the service settings change.
 */
export class LogSecrets {
  private cache: { at: number; values: readonly string[] } | null = null;

  constructor(
    private readonly keyStore: KeyStore,
    /** A key given for this session only (a CLI flag, DUBDESK_API_KEY). */
    private readonly sessionKey: string | undefined,
  ) {}

  values(): readonly string[] {
    const now = Date.now();
    if (this.cache && now - this.cache.at < 1000) return this.cache.values;
    let stored = '';
    try {
      stored = this.keyStore.get() ?? '';
    } catch {
      /* a damaged store is reported where the key is needed, never from inside a log line */
    }
    const values = [stored, this.sessionKey ?? ''].filter(Boolean);
    this.cache = { at: now, values };
    return values;
  }

  /** The stored key may have changed: read it again for the next line. */
  forget(): void {
    this.cache = null;
  }
}

import { join } from 'node:path';
import type { ServiceMode } from '../../../shared/contract/account';
import { DubdeskError } from '../../../shared/contract/errors';
import { keySafeAddress, originOf, parseServiceAddress } from '../../../shared/contract/service-address';
import type { Settings } from '../../../shared/contract/settings';
import { createServiceClients, type ServiceClients, type ServiceOptions } from '../api/clients';
import type { KeyStore } from '../keys/key-store';
import { consentNeeded } from '../keys/os-key-store';
import { readStoredService, writeStoredService, type StoredService } from '../keys/service-file';

/** What a face says about the service for this session (CLI flags and DUBDESK_* variables); beats stored settings. */
export interface ServiceOverrides {
  baseUrl?: string;
  legacyUrl?: string;
  apiKey?: string;
  /** This session uses the built-in sandbox whatever is stored (`dubdesk serve --sandbox`). */
  sandbox?: boolean;
}

/** The built-in sandbox, started by the face (the engine never imports the sandbox). */
export interface SandboxHandle {
  baseUrl: string;
  legacyUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}
/** Starts the built-in sandbox keeping its state in `stateDir`, so a later session finds its dubs again. */
export type SandboxStarter = (stateDir: string) => Promise<SandboxHandle>;

export interface ActiveService {
  /** Jobs remember it: `sandbox`, or the base URL of the real service. */
  id: string;
  mode: ServiceMode;
  baseUrl: string;
  legacyUrl: string | null;
  clients: ServiceClients;
}

const trimUrl = (u: string) => u.replace(/\/+$/, '');

/** The origins of a service's addresses, the ones a key entered now is bound to. */
const originsOf = (...addresses: (string | null | undefined)[]): string[] =>
  addresses.flatMap((a) => {
    const o = a ? originOf(a) : null;
    return o ? [o] : [];
  });

/** The origins a stored key belongs to (files from before the binding: the addresses stored with it). */
const keyOriginsOf = (stored: StoredService): string[] =>
  stored.keyOrigins ?? originsOf(stored.baseUrl, stored.legacyUrl);

/** Which service the engine talks to, with which key; the built-in sandbox when none is configured. */
export class ServiceConnection {
  private active: ActiveService | null = null;
  private sandbox: SandboxHandle | null = null;
  private starting: Promise<ActiveService> | null = null;

  constructor(
    private readonly home: string,
    private readonly keys: KeyStore,
    private readonly overrides: ServiceOverrides,
    private readonly startSandbox: SandboxStarter | null,
    private readonly clientOptions: Pick<
      ServiceOptions,
      'limits' | 'partFiles' | 'sourceReads' | 'secrets' | 'caps'
    > = {},
  ) {}

  /** What the settings come to: the stored ones (or `stored`, ones about to be stored) under the session's. */
  private resolve(stored: StoredService = readStoredService(this.home)): {
    mode: ServiceMode;
    configured: boolean;
    baseUrl: string | null;
    legacyUrl: string | null;
    apiKey: string | null;
    keyEnteredFor: string | null;
    /** The address set now that the stored key was not entered for (the one to name). */
    keyNotFor: string | null;
    /** The origins the stored key was entered for. */
    keyOrigins: string[];
  } {
    const baseUrl = this.overrides.baseUrl || stored.baseUrl || null;
    const legacyUrl = this.overrides.legacyUrl || stored.legacyUrl || null;
    // A stored key goes only to the addresses it was entered for: pointing the service elsewhere (a
    // setting anyone with the serve token can change) must not send it there.
    const storedKey = this.overrides.apiKey ? null : this.keys.get();
    const bound = keyOriginsOf(stored);
    // An address without an origin (refused by the parser) fits nothing.
    const unparsed = [baseUrl, legacyUrl].some((a) => a && originOf(a) === null);
    const notBound = originsOf(baseUrl, legacyUrl).find((o) => !bound.includes(o)) ?? null;
    const fits = !unparsed && notBound === null;
    const apiKey = this.overrides.apiKey || (storedKey && fits ? storedKey : null);
    // Every address it was entered for: with only the legacy one changed, naming the service address
    // alone read "entered for X, not for X".
    const keyEnteredFor = storedKey && !fits ? bound.join(' and ') || null : null;
    const keyNotFor = storedKey && !fits ? notBound : null;
    let mode: ServiceMode;
    if (this.overrides.sandbox) mode = 'sandbox';
    else if (this.overrides.apiKey || this.overrides.baseUrl) mode = 'service';
    else if (stored.mode) mode = stored.mode;
    else mode = storedKey || apiKey || baseUrl ? 'service' : 'sandbox';
    const configured = Boolean(
      this.overrides.sandbox ||
      this.overrides.apiKey ||
      this.overrides.baseUrl ||
      stored.mode ||
      storedKey ||
      baseUrl,
    );
    return {
      mode,
      configured,
      baseUrl,
      legacyUrl,
      apiKey,
      keyEnteredFor,
      keyNotFor,
      keyOrigins: storedKey ? bound : [],
    };
  }

  mode(): ServiceMode {
    return this.resolve().mode;
  }

  /** The id jobs of the current service carry, without starting anything. */
  serviceId(): string {
    const r = this.resolve();
    return r.mode === 'sandbox' ? 'sandbox' : r.baseUrl ? trimUrl(r.baseUrl) : '';
  }

  describe(): Settings['service'] {
    const r = this.resolve();
    const fromEnv = Boolean(this.overrides.apiKey);
    return {
      mode: r.mode,
      configured: r.configured,
      baseUrl: r.mode === 'sandbox' ? (this.active?.baseUrl ?? null) : r.baseUrl,
      legacyUrl: r.mode === 'sandbox' ? (this.active?.legacyUrl ?? null) : r.legacyUrl,
      apiKeySet: Boolean(r.apiKey),
      apiKeyHint: r.apiKey ? `…${r.apiKey.slice(-4)}` : null,
      keyEnteredFor: r.mode === 'service' ? r.keyEnteredFor : null,
      ...(r.keyOrigins.length ? { keyOrigins: r.keyOrigins } : {}),
      keyStore: fromEnv ? 'env' : r.apiKey ? this.keys.kind : null,
      keyStorage: this.keys.storage?.() ?? {
        store: this.keys.kind,
        osUnavailable: null,
        needsConsent: false,
      },
    };
  }

  /** The service to talk to now, starting the built-in sandbox if it is the one. */
  ensure(): Promise<ActiveService> {
    if (this.active) return Promise.resolve(this.active);
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  current(): ActiveService | null {
    return this.active;
  }

  private async open(): Promise<ActiveService> {
    const r = this.resolve();
    if (r.mode === 'sandbox') {
      if (!this.startSandbox)
        throw new DubdeskError('config', 'the built-in sandbox is not available here', {
          remedy: 'Configure the service address and an API key.',
        });
      this.sandbox ??= await this.startSandbox(join(this.home, 'sandbox')).catch((e: unknown) => {
        throw new DubdeskError(
          'config',
          `the built-in sandbox could not start: ${e instanceof Error ? e.message : String(e)}`,
        );
      });
      const sb = this.sandbox;
      this.active = {
        id: 'sandbox',
        mode: 'sandbox',
        baseUrl: sb.baseUrl,
        legacyUrl: sb.legacyUrl,
        clients: this.clientsFor(sb.baseUrl, sb.legacyUrl, sb.apiKey),
      };
      return this.active;
    }
    if (!r.apiKey && r.keyEnteredFor)
      throw new DubdeskError(
        'auth',
        `the API key was entered for ${r.keyEnteredFor}, not for ${r.keyNotFor ?? 'this address'}`,
        {
          remedy: 'Enter the API key again for this address (Settings, or dubdesk login).',
          field: 'apiKey',
        },
      );
    if (!r.apiKey)
      throw new DubdeskError('auth', 'no API key is configured', {
        remedy: 'Enter the API key from your account settings (API Keys section).',
        field: 'apiKey',
      });
    if (!r.baseUrl)
      throw new DubdeskError('config', 'an API key is set but no service address', {
        remedy: 'Enter the service address (its base URL).',
        field: 'baseUrl',
      });
    for (const address of [r.baseUrl, r.legacyUrl]) {
      const parsed = address ? parseServiceAddress(address) : null;
      if (address && parsed && 'problem' in parsed)
        throw new DubdeskError('config', `the service address ${address} is refused: ${parsed.problem}`, {
          remedy: 'Enter the service address again, as https://host[:port][/path].',
          field: address === r.baseUrl ? 'baseUrl' : 'legacyUrl',
        });
      if (address && !keySafeAddress(address))
        throw new DubdeskError(
          'config',
          `${address} is plain http on another machine: the key would travel in the clear`,
          {
            remedy: 'Use the https:// address of the service.',
            field: 'baseUrl',
          },
        );
    }
    const baseUrl = trimUrl(r.baseUrl);
    this.active = {
      id: baseUrl,
      mode: 'service',
      baseUrl,
      legacyUrl: r.legacyUrl,
      clients: this.clientsFor(baseUrl, r.legacyUrl, r.apiKey),
    };
    return this.active;
  }

  /** Stores a change of service, address or key; the next call talks to the new one. */
  async update(patch: {
    mode?: ServiceMode;
    baseUrl?: string | null;
    legacyUrl?: string | null;
    apiKey?: string | null;
    allowFileKeyStore?: boolean;
  }): Promise<void> {
    // The agreement first, and a key that cannot be kept refused before anything else is written.
    if (patch.allowFileKeyStore !== undefined) this.keys.allowFile?.(patch.allowFileKeyStore);
    if (patch.apiKey && this.keys.storage?.().needsConsent)
      throw consentNeeded(this.keys.storage().osUnavailable);
    const stored = readStoredService(this.home);
    const next: StoredService = { ...stored };
    // Bound before any address changes, so a file from before the binding keeps its key where it was.
    if (this.keys.get()) next.keyOrigins = keyOriginsOf(stored);
    if (patch.mode !== undefined) next.mode = patch.mode;
    if (patch.baseUrl !== undefined) {
      if (patch.baseUrl === null) delete next.baseUrl;
      else next.baseUrl = patch.baseUrl;
    }
    if (patch.legacyUrl !== undefined) {
      if (patch.legacyUrl === null) delete next.legacyUrl;
      else next.legacyUrl = patch.legacyUrl;
    }
    if (patch.apiKey !== undefined && patch.mode === undefined && patch.apiKey !== null)
      next.mode = 'service';
    // Choosing the service without a key would leave every face with nothing to talk to (the sandbox no
    // longer stands in, and nothing can be sent): refused before anything is written. (Taking a key away
    // is another matter: the faces then ask for one.) The settings after this save decide: an address
    // changed back to the one the key was entered for brings the key back.
    const keyAfter = patch.apiKey !== undefined ? patch.apiKey : this.resolve(next).apiKey;
    if (patch.mode === 'service' && !keyAfter)
      throw new DubdeskError('bad-request', 'the dubbing service needs your API key', {
        remedy: 'Paste your API key, or keep the built-in sandbox.',
        field: 'service.apiKey',
      });
    // A key entered now belongs to the addresses set with it; forgotten, it belongs nowhere.
    if (patch.apiKey)
      next.keyOrigins = originsOf(
        this.overrides.baseUrl || next.baseUrl,
        this.overrides.legacyUrl || next.legacyUrl,
      );
    else if (patch.apiKey === null) delete next.keyOrigins;
    writeStoredService(this.home, next);
    if (patch.apiKey !== undefined) this.keys.set(patch.apiKey);
    this.active = null;
    if (this.resolve().mode !== 'sandbox') await this.stopSandbox();
  }

  /** Clients for a key being tried out, without storing it. */
  trial(apiKey: string, baseUrl: string | undefined): ServiceClients {
    // The address the user gave, else the service's stored one: never the built-in sandbox's loopback.
    const url = baseUrl ?? this.resolve().baseUrl;
    if (!url)
      throw new DubdeskError('config', 'no service address to test the key against', {
        remedy: 'Enter the service address (its base URL).',
        field: 'baseUrl',
      });
    return this.clientsFor(trimUrl(url), null, apiKey);
  }

  private async stopSandbox(): Promise<void> {
    const sb = this.sandbox;
    this.sandbox = null;
    await sb?.stop();
  }

  async close(): Promise<void> {
    this.active = null;
    await this.stopSandbox();
  }

  private clientsFor(baseUrl: string, legacyUrl: string | null, apiKey: string): ServiceClients {
    return createServiceClients({ baseUrl, legacyUrl, apiKey, ...this.clientOptions });
  }
}

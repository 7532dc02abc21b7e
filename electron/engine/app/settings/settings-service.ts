import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { Settings } from '../../../../shared/contract/settings';
import type { JobStore } from '../../db/jobs';
import type { AccountService } from '../account/account-service';
import { asContractError } from '../contract-error';
import type { EventHub } from '../event-hub';
import type { LogSecrets } from '../log-secrets';
import type { EngineOptions } from '../options';
import { absolutePath } from '../paths';
import type { QueuePauseSetting } from '../queue/pause';
import type { ServiceManager } from '../service';
import { readAppSettings, settingsView, writeAppSettings } from './app-settings';
import { checkOutputFolder } from './output-folder';

export interface SettingsDeps {
  options: Pick<EngineOptions, 'appVersion' | 'face' | 'home' | 'cwd'>;
  store: JobStore;
  services: ServiceManager;
  account: AccountService;
  pause: QueuePauseSetting;
  secrets: LogSecrets;
  hub: EventHub;
  info(fields: Record<string, unknown>, message: string): void;
  /** The worker reads the settings again now (concurrency, the service). */
  wake(): void;
  scheduleTotals(): void;
}

type SettingsHandlers = Pick<DubdeskHandlers, 'appInfo' | 'getSettings' | 'setSettings'>;

/** The app's settings (in the queue's database) and the service's (service.json and the key store). */
export class SettingsService {
  constructor(private readonly deps: SettingsDeps) {}

  private settings(): Settings {
    return settingsView(
      readAppSettings(this.deps.store),
      this.deps.services.describe(),
      this.deps.options.face,
    );
  }

  /** Another service or key: the old balance goes, and work goes on with the new one or stops clearly. */
  private async serviceChanged(): Promise<void> {
    const { services, pause } = this.deps;
    this.deps.secrets.forget();
    this.deps.account.balance.forget();
    this.deps.scheduleTotals();
    this.deps.info({ mode: services.mode() }, 'service settings changed');
    try {
      await services.ensure();
      if (pause.get()?.reason === 'auth') pause.set(null);
    } catch (e) {
      const err = asContractError(e);
      if (err.code === 'auth' || err.code === 'config') pause.set({ reason: 'auth', message: err.message });
    }
    this.deps.hub.emit({ type: 'jobs-changed', removed: [] });
  }

  handlers(): SettingsHandlers {
    const { options } = this.deps;
    return {
      appInfo: () => ({
        name: 'Dubdesk',
        version: options.appVersion ?? '0.0.0',
        shell: options.face,
        home: options.home,
        platform: process.platform,
      }),
      getSettings: () => this.settings(),
      setSettings: async (patch) => {
        const { service, ...rest } = patch;
        const outDir = rest.defaults?.outDir;
        // Kept as a full path: the faces that use it (window, web page) have no folder to start a relative one.
        if (rest.defaults && outDir) {
          const full = absolutePath(outDir, options.cwd ?? null, 'defaults.outDir');
          await checkOutputFolder(full, 'defaults.outDir');
          rest.defaults = { ...rest.defaults, outDir: full };
        }
        if (rest.lastOutDir)
          rest.lastOutDir = absolutePath(rest.lastOutDir, options.cwd ?? null, 'lastOutDir');
        if (Object.keys(rest).length) writeAppSettings(this.deps.store, rest, options.face);
        if (service) {
          await this.deps.services.update(service);
          await this.serviceChanged();
        }
        const settings = this.settings();
        this.deps.hub.emit({ type: 'settings', settings });
        this.deps.wake();
        return settings;
      },
    };
  }
}

import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { Settings } from '../../../../shared/contract/settings';
import { settingChanged, type Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import type { AccountService } from '../account/account-service';
import { asContractError } from '../contract-error';
import type { EventHub } from '../event-hub';
import type { LogSecrets } from '../log-secrets';
import type { EngineOptions } from '../options';
import { absolutePath } from '../paths';
import type { QueuePauseSetting } from '../queue/pause';
import type { ServiceConnection } from '../dubbing-service';
import { APP_SETTINGS_KEY, readAppSettings, settingsView, writeAppSettings } from './app-settings';
import { checkOutputFolder } from './output-folder';

export interface SettingsDeps {
  options: Pick<EngineOptions, 'appVersion' | 'face' | 'home' | 'cwd'>;
  store: JobStore;
  services: ServiceConnection;
  account: AccountService;
  pause: QueuePauseSetting;
  secrets: LogSecrets;
  hub: EventHub;
  info(fields: Record<string, unknown>, message: string): void;
  /** The job views name the service: the faces list again when it changed. */
  listChanged(): void;
}

type SettingsHandlers = Pick<DubdeskHandlers, 'appInfo' | 'getSettings' | 'setSettings'>;

/** The app's settings (in the queue's database) and the service's (service.json and the key store). */
export class SettingsService {
  /** The settings as last sent to the faces: an unchanged value is not sent again. */
  private sent = '';

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
    this.deps.info({ mode: services.mode() }, 'service settings changed');
    try {
      await services.ensure();
      if (pause.get()?.reason === 'auth') pause.set(null);
    } catch (e) {
      const err = asContractError(e);
      if (err.code === 'auth' || err.code === 'config') pause.set({ reason: 'auth', message: err.message });
    }
    this.deps.listChanged();
  }

  /**
   * A commit (the feed's subscriber): the app's settings, changed here, or by another process (sent only
   * when they differ from what the faces were last sent: another process's commit names no key), are sent.
   */
  heard(changes: Changes): void {
    if (!settingChanged(changes, APP_SETTINGS_KEY) || this.deps.hub.size === 0) return;
    const settings = this.settings();
    const json = JSON.stringify(settings);
    if (changes.foreign && json === this.sent) return;
    this.sent = json;
    this.deps.hub.emit({ type: 'settings', settings });
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
          // The service's settings live in service.json and the key store, not the database: told here.
          const settings = this.settings();
          this.sent = JSON.stringify(settings);
          this.deps.hub.emit({ type: 'settings', settings });
        }
        return this.settings();
      },
    };
  }
}

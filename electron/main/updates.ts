/**
 * Updates from the GitHub releases (electron-builder's `publish`): checked at start and every 6 hours,
 * downloaded in the background, installed when the app quits. "Check for Updates…" in the menu (and in
 * Settings) checks now and says what it found: the current version and the available one. Off when the app
 * runs unpackaged (`npm start`), where there is nothing to replace. Where this copy cannot install an update
 * (an unsigned Mac build, a Linux folder that is neither an AppImage nor an installed package) it never
 * downloads one: it says so, and where to download new versions by hand.
 */
import type { AppUpdater, UpdateInfo } from 'electron-updater';

export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

export type UpdateStatus =
  'off' | 'manual' | 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed';

/** Where new versions are published (electron-builder.yml's `publish`). */
export const RELEASES_URL = 'https://github.com/dubdesk/dubdesk/releases';

/** Said when the updater finds it has nothing to install on this copy (`checkForUpdates()` answers null). */
export const CANNOT_INSTALL =
  'This copy cannot install updates by itself: it is neither an AppImage nor an installed package.';

export interface UpdateState {
  status: UpdateStatus;
  current: string;
  /** The newer version found (downloading or ready to install on quit). */
  available: string | null;
  /** Download progress, 0-100, while downloading. */
  percent: number | null;
  /** Why the last check or download failed. */
  error: string | null;
  /** Why updates are not installed automatically (status `manual`). */
  reason?: string | null;
}

/** The part of electron-updater's AppUpdater used here (its events, its two switches, a check). */
export type Updater = Pick<AppUpdater, 'autoDownload' | 'autoInstallOnAppQuit' | 'checkForUpdates' | 'on'>;

export interface UpdatesOptions {
  packaged: boolean;
  /** The version running (app.getVersion()). */
  current: string;
  /** Repeats a check (setInterval by default); returns how to stop it. */
  every?: (fn: () => void, ms: number) => () => void;
  /** Why this copy cannot install updates (unsigned on macOS...), or null when it can. */
  unavailable?: () => Promise<string | null>;
}

const repeat = (fn: () => void, ms: number) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

const messageOf = (e: unknown) =>
  (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 300) ?? '';

export class Updates {
  private value: UpdateState;
  private readonly listeners = new Set<(s: UpdateState) => void>();
  private stopTimer: (() => void) | null = null;
  private settled: Promise<void> | null = null;

  constructor(
    private readonly updater: Updater | null,
    private readonly options: UpdatesOptions,
  ) {
    this.value = {
      status: this.enabled ? 'idle' : 'off',
      current: options.current,
      available: null,
      percent: null,
      error: null,
    };
    if (!updater || !this.enabled) return;
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    updater.on('checking-for-update', () => this.set({ status: 'checking', error: null }));
    updater.on('update-not-available', () =>
      this.set({ status: 'up-to-date', available: null, percent: null }),
    );
    updater.on('update-available', (info: UpdateInfo) =>
      this.set({ status: 'downloading', available: info.version, percent: 0 }),
    );
    updater.on('download-progress', (p: { percent: number }) =>
      this.set({ status: 'downloading', percent: Math.round(p.percent) }),
    );
    updater.on('update-downloaded', (info: UpdateInfo) =>
      this.set({ status: 'ready', available: info.version, percent: null }),
    );
    updater.on('error', (e: Error) => this.set({ status: 'failed', error: messageOf(e), percent: null }));
  }

  get enabled(): boolean {
    return this.options.packaged && this.updater !== null;
  }

  get state(): UpdateState {
    return this.value;
  }

  onChange(listener: (s: UpdateState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** At start: one check now, then one every 6 hours (none where this copy cannot install updates). */
  start(): void {
    if (!this.enabled || this.stopTimer) return;
    this.stopTimer = (this.options.every ?? repeat)(() => void this.check(), CHECK_EVERY_MS);
    void this.check();
  }

  /** Whether this copy can install updates, asked once. */
  private ableToInstall(): Promise<void> {
    this.settled ??= (async () => {
      const reason = await (this.options.unavailable?.() ?? Promise.resolve(null)).catch(() => null);
      if (reason) this.manual(reason);
    })();
    return this.settled;
  }

  private manual(reason: string): void {
    this.stop();
    this.set({ status: 'manual', reason, available: null, percent: null, error: null });
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = null;
  }

  /** Checks now (the download, if any, goes on in the background); resolves with what the check found. */
  async check(): Promise<UpdateState> {
    if (!this.updater || !this.enabled) return this.value;
    await this.ableToInstall();
    // A download under way or finished is not started again by a second check.
    if (['manual', 'downloading', 'ready'].includes(this.value.status)) return this.value;
    try {
      const result = await this.updater.checkForUpdates();
      // The updater is inactive here: the check would say "Checking…" for ever.
      if (result === null) this.manual(CANNOT_INSTALL);
      // A failed background download is reported by the 'error' event; its promise must not go unhandled.
      result?.downloadPromise?.catch(() => {});
    } catch (e) {
      this.set({ status: 'failed', error: messageOf(e), percent: null });
    }
    return this.value;
  }

  private set(patch: Partial<UpdateState>): void {
    this.value = { ...this.value, ...patch };
    for (const l of this.listeners) l(this.value);
  }
}

/** What "Check for Updates…" says after a check, with both versions. */
export function updateMessage(s: UpdateState): { message: string; detail: string } {
  const current = `You have Dubdesk ${s.current}.`;
  switch (s.status) {
    case 'off':
      return {
        message: 'Updates are off',
        detail: `${current} This copy runs unpackaged; updates come to installed copies.`,
      };
    case 'manual':
      return {
        message: 'Updates are not installed automatically',
        detail: `${current} ${s.reason ?? ''} Download new versions from ${RELEASES_URL}.`.replace('  ', ' '),
      };
    case 'up-to-date':
      return { message: 'Dubdesk is up to date', detail: current };
    case 'downloading':
      return {
        message: `Dubdesk ${s.available ?? ''} is available`,
        detail: `${current} It is downloading in the background${s.percent ? ` (${s.percent}%)` : ''} and is installed when you quit.`,
      };
    case 'ready':
      return {
        message: `Dubdesk ${s.available ?? ''} is ready`,
        detail: `${current} The new version is installed when you quit Dubdesk.`,
      };
    case 'failed':
      return { message: 'Could not check for updates', detail: `${current} ${s.error ?? ''}`.trim() };
    default:
      return { message: 'Checking for updates…', detail: current };
  }
}

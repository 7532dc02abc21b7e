import type { SendWindow } from '../../../../shared/schedule';
import type { TransferCaps } from '../../api/rate-cap';
import { settingChanged, type Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import type { RunOptions } from '../../runner/runner';
import { readAppSettings } from '../settings/app-settings';

export interface Steering {
  maxUploadRate: number | null;
  maxDownloadRate: number | null;
  sendWindow: SendWindow | null;
  monthlyBudget: number | null;
}

/**
 * What steers the work from the settings (caps, the sending window, the budget), with a run's own flags
 * on top (`run --max-upload-rate`), kept until the change feed says the settings changed (here or in
 * another process): the worker asks at every turn. A change of cap reaches the transfers under way from
 * their next piece on.
 */
export class RunSettings {
  private cached: Steering | null = null;
  private run: Pick<RunOptions, 'maxUploadRate' | 'maxDownloadRate' | 'sendWindow'> | null = null;

  constructor(
    private readonly store: JobStore,
    private readonly caps: TransferCaps,
  ) {
    this.apply(this.current());
  }

  current(): Steering {
    if (this.cached) return this.cached;
    const s = readAppSettings(this.store);
    const run = this.run ?? {};
    const value: Steering = {
      maxUploadRate: run.maxUploadRate !== undefined ? run.maxUploadRate : s.maxUploadRate,
      maxDownloadRate: run.maxDownloadRate !== undefined ? run.maxDownloadRate : s.maxDownloadRate,
      sendWindow: run.sendWindow !== undefined ? run.sendWindow : s.sendWindow,
      monthlyBudget: s.monthlyBudget,
    };
    this.cached = value;
    this.apply(value);
    return value;
  }

  /** A commit (the feed's subscriber): the app's settings may have changed. */
  heard(changes: Changes): void {
    if (settingChanged(changes, 'app.settings')) this.settingsChanged();
  }

  settingsChanged(): void {
    this.cached = null;
    this.current();
  }

  /** A run's own flags for as long as it runs (null: the run ended). */
  forRun(opts: RunOptions | null): void {
    this.run = opts
      ? {
          ...(opts.maxUploadRate !== undefined ? { maxUploadRate: opts.maxUploadRate } : {}),
          ...(opts.maxDownloadRate !== undefined ? { maxDownloadRate: opts.maxDownloadRate } : {}),
          ...(opts.sendWindow !== undefined ? { sendWindow: opts.sendWindow } : {}),
        }
      : null;
    this.settingsChanged();
  }

  private apply(value: Steering): void {
    this.caps.upload.set(value.maxUploadRate);
    this.caps.download.set(value.maxDownloadRate);
  }
}

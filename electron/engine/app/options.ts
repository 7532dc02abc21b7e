import type { AppInfo } from '../../../shared/contract/account';
import type { SourceReads } from '../api/body-stream';
import type { PartFiles } from '../api/download';
import type { HttpLimits } from '../api/limits';
import type { KeyStore } from '../keys/key-store';
import type { BackoffPolicy } from '../runner/backoff';
import type { WatchTiming } from '../watcher/env';
import type { SandboxStarter, ServiceOverrides } from './dubbing-service';
import type { WhenDoneExecutor } from './when-done/executor';

export interface EngineOptions {
  home: string;
  /** Which face opened the engine (it shows in `appInfo`). */
  face: AppInfo['shell'];
  appVersion?: string;
  /** Session overrides of the stored service settings (CLI flags, DUBDESK_* variables). */
  service?: ServiceOverrides;
  /** Where the API key is kept; the owner-only `service.json` by default. */
  keyStore?: KeyStore;
  /** Starts the built-in sandbox when no service is configured; without it, sandbox mode is unavailable. */
  startSandbox?: SandboxStarter;
  backoff?: BackoffPolicy;
  /** HTTP timeouts and body caps (tests shorten them). */
  limits?: Partial<HttpLimits>;
  /** Where downloads write their part files; the disk by default (tests give one that fills up). */
  partFiles?: PartFiles;
  /** How files going out are read; Node's fs by default (tests give reads that hang, as a share asleep). */
  sourceReads?: SourceReads;
  /** Attempts at a step the service keeps failing before the job fails. */
  maxServiceAttempts?: number;
  /** Parse every result against the contract (tests). */
  checkOutputs?: boolean;
  /**
   * Folder relative paths are resolved against (the CLI's working directory). Absent for a face that has
   * none (the desktop window, the web page): a relative path is refused there, not guessed.
   */
  cwd?: string;
  /** How patient the folder watcher is (tests shorten it). */
  watch?: Partial<WatchTiming>;
  /** What sleeps, shuts down and runs commands when a batch is done (tests give one that records). */
  whenDoneExecutor?: WhenDoneExecutor;
  /** How long sleep and shut down count down first (tests shorten it). */
  whenDoneCountdownMs?: number;
}

/** More jobs than this changed at once: the faces are told to reload the list, not sent each job. */
export const BULK = 50;

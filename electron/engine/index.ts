/**
 * The engine's one entry: the faces (CLI, desktop shell, `serve`) import this file and nothing else from
 * the engine. They get the contract (`api`), and `run` to work the queue in their process.
 */
import { join } from 'node:path';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { EngineOptions } from './app/options';
import { DubdeskEngine } from './app/root';
import { restoreNewestBackup } from './db/backup';
import type { RunOptions, RunOutcome } from './runner/runner';

export { defaultHome } from './home/home';
export { diagnose, diagnosticsReport, formatChecks, type Check, type DiagnoseOptions } from './doctor/public';
export { keepWorking, type QueueWorker, type WorkableHost, type WorkerReport } from './app/keep-working';
export type { KeyStore } from './keys/key-store';
export {
  KEYRING_SERVICE,
  loadKeyring,
  systemKeyStore,
  SystemKeyStore,
  type KeyringEntry,
  type OpenKeyringEntry,
  type SystemKeyStoreOptions,
} from './keys/os-key-store';
export type { SandboxHandle, SandboxStarter, ServiceOverrides } from './app/dubbing-service';
export type { EngineOptions, RunOptions, RunOutcome };

export interface DubdeskHost {
  /** The contract: every action a user can take, and the event stream. */
  readonly api: DubdeskApi;
  readonly home: string;
  /** Works the queue until done (or aborted); one worker per data folder, else a `busy` error. */
  run(opts: RunOptions): Promise<RunOutcome>;
  /** Polls the service and retries network waits now (after sleep, or when the network is back). */
  wake(): void;
  close(): Promise<void>;
}

export function openDubdesk(options: EngineOptions): DubdeskHost {
  const engine = new DubdeskEngine(options);
  return {
    api: engine.api,
    home: options.home,
    run: (opts) => engine.run(opts),
    wake: () => engine.wake(),
    close: () => engine.close(),
  };
}

/**
 * Puts back the newest good backup of the queue database of `home` (`dubdesk restore-db`); the damaged
 * file is kept beside it, renamed. Run with no Dubdesk open on that home.
 */
export function restoreDatabase(home: string): { restoredFrom: string; damagedKeptAs: string } {
  return restoreNewestBackup(join(home, 'dubdesk.db'));
}

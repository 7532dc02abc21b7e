/**
 * The engine's one entry: the faces (CLI, desktop shell, `serve`) import this file and nothing else from
 * the engine. They get the contract (`api`), and `run` to work the queue in their process.
 */
import type { DubdeskApi } from '../../shared/contract/methods';
import type { EngineOptions } from './app/options';
import { DubdeskEngine } from './app/root';
import { restoreQueue, type Restored } from './db/restore';
import type { AfterRestore } from './flows/restored-dubs';
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
export { systemExecutor, type WhenDoneExecutor } from './app/when-done/executor';
export type { AfterRestore, EngineOptions, Restored, RunOptions, RunOutcome };

export interface DubdeskHost {
  /** The contract: every action a user can take, and the event stream. */
  readonly api: DubdeskApi;
  readonly home: string;
  /** Works the queue until done (or aborted); one worker per data folder, else a `busy` error. */
  run(opts: RunOptions): Promise<RunOutcome>;
  /** Polls the service and retries network waits now (after sleep, or when the network is back). */
  wake(): void;
  /**
   * After `restoreDatabase`: asks the service for the dubs the restored queue does not know, so they are
   * taken, not paid for again (a run does it by itself before it sends anything); null when none waits.
   */
  recover(): Promise<AfterRestore | null>;
  close(): Promise<void>;
}

export function openDubdesk(options: EngineOptions): DubdeskHost {
  const engine = new DubdeskEngine(options);
  return {
    api: engine.api,
    home: options.home,
    run: (opts) => engine.run(opts),
    wake: () => engine.wake(),
    recover: () => engine.recover(),
    close: () => engine.close(),
  };
}

/**
 * Puts back the newest good backup of the queue database of `home` (`dubdesk restore-db`), with the rows
 * the damaged file still holds; the damaged file is kept beside it, renamed. Refused while another
 * Dubdesk has that home open. The dubs made since the backup are asked for before anything is sent.
 */
export function restoreDatabase(home: string): Restored {
  return restoreQueue(home);
}

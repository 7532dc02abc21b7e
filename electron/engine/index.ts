/**
 * The engine's one entry: the faces (CLI, desktop shell, `serve`) import this file and nothing else from
 * the engine. They get the contract (`api`), and `run` to work the queue in their process.
 */
import type { DubdeskApi } from '../../shared/contract/methods';
import { DubdeskEngine, type EngineOptions } from './facade/engine';
import type { RunOptions, RunOutcome } from './queue/runner';

export { defaultHome } from './facade/home';
export { diagnose, diagnosticsReport, formatChecks, type Check, type DiagnoseOptions } from './doctor/public';
export { keepWorking, type QueueWorker, type WorkableHost, type WorkerReport } from './facade/keep-working';
export type { KeyStore } from './facade/key-store';
export {
  KEYRING_SERVICE,
  loadKeyring,
  systemKeyStore,
  SystemKeyStore,
  type KeyringEntry,
  type OpenKeyringEntry,
  type SystemKeyStoreOptions,
} from './facade/os-key-store';
export type { SandboxHandle, SandboxStarter, ServiceOverrides } from './facade/service';
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

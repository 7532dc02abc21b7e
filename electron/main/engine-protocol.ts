/**
 * Messages between the main process and the engine's utility process. The engine runs there so a large
 * add or a busy queue never blocks the window's process (measured: the engine blocks its thread for
 * hundreds of milliseconds on a 10,000-job add: `npm run bench:main-thread`, docs/performance.md).
 */
import type { ContractError } from '../../shared/contract/errors';
import type { EngineEvent } from '../../shared/contract/events';
import type { MethodName } from '../../shared/contract/methods';
import type { Reply } from './channels';

export interface EngineInit {
  home: string;
  appVersion: string;
  /** Session overrides of the stored service settings (DUBDESK_* variables, tests). */
  service?: { baseUrl?: string; legacyUrl?: string; apiKey?: string };
  /** `system`: the OS credential store, else a file the user agrees to; `file`: the file only. */
  keyStore: 'system' | 'file';
  /**
   * Who stands in when no service is configured: the built-in sandbox (its state in the home, shared with
   * the CLI), a quicker one for tests (its state on disk too), or none.
   */
  sandbox: 'builtin' | { pipelineSeconds: number; balance: number } | null;
  backoff?: { baseMs: number; capMs: number };
  /** Check every result against the contract (tests). */
  checkOutputs?: boolean;
}

export type ToEngine =
  | { type: 'init'; init: EngineInit }
  | { type: 'call'; id: number; method: MethodName; arg: unknown }
  | { type: 'wake' }
  /** Nothing new starts while on (quit after the current uploads); off goes back to work. */
  | { type: 'hold'; on: boolean }
  /** Finish the HTTP calls in flight (cut after `graceMs`), close the queue, exit. */
  | { type: 'stop'; graceMs: number };

export type FromEngine =
  | { type: 'ready' }
  | { type: 'failed'; error: ContractError }
  | { type: 'reply'; id: number; reply: Reply }
  | { type: 'event'; event: EngineEvent }
  /** The queue worker could not start or stopped (another process works the queue, no key...). */
  | { type: 'worker'; running: boolean; error: ContractError | null }
  | { type: 'stopped' };

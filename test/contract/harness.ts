/** The contract suite's harness (what each transport gives it) and the state its tests share. */
import type { EngineEvent } from '../../shared/contract/events';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { Sandbox } from '../../electron/sandbox/server';

export interface ContractHarness {
  api: DubdeskApi;
  /** Works the queue until every job is done (wherever the engine runs: this process or a server's). */
  runUntilDone(): Promise<string>;
  close(): Promise<void>;
}

/** Opens the api under test on a fresh data folder, talking to `sandbox` with `apiKey`. */
export type MakeHarness = (sandbox: Sandbox, opts: { apiKey: string }) => Promise<ContractHarness>;

/** What the suite's tests share: set up once, before the first, for the tests of one transport. */
export interface SuiteState {
  sb: Sandbox;
  h: ContractHarness;
  api: DubdeskApi;
  events: EngineEvent[];
}

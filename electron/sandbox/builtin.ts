import { findRunningSandbox, SandboxStateError, startSandbox } from './server';
import { LEGACY_ROOT } from './routes/legacy';

export interface BuiltInSandbox {
  baseUrl: string;
  legacyUrl: string;
  apiKey: string;
  stop(): Promise<void>;
}

const KEY = 'sandbox-key';

/**
 * The simulator a user gets without an account: its state (dubs, uploads, balance, clock) lives in
 * `stateDir` inside the Dubdesk home, so work queued against it survives the command that started it.
 * When another Dubdesk process already runs it on that folder, this one talks to that one.
 */
export async function startBuiltInSandbox(stateDir: string): Promise<BuiltInSandbox> {
  const borrowed = (baseUrl: string): BuiltInSandbox => ({
    baseUrl,
    legacyUrl: `${baseUrl}${LEGACY_ROOT}`,
    apiKey: KEY,
    stop: async () => {},
  });
  const running = await findRunningSandbox(stateDir);
  if (running) return borrowed(running);
  try {
    const sb = await startSandbox({ stateDir, apiKey: KEY, pipelineSeconds: 4, balance: 3600 });
    return { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: KEY, stop: () => sb.stop() };
  } catch (e) {
    // Another process started it between our look and our start: use that one.
    const other = e instanceof SandboxStateError ? await findRunningSandbox(stateDir) : null;
    if (other) return borrowed(other);
    throw e;
  }
}

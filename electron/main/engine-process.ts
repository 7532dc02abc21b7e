/**
 * The engine's side of the utility process: opens the engine, works the queue for as long as the app runs
 * (`run({ untilDone: false })`), answers contract calls and forwards events. Stops gently: the HTTP call in
 * flight finishes (or is cut after a grace period) and every job resumes next time.
 */
import { toContractError } from '../../shared/contract/errors';
import type { EngineEvent } from '../../shared/contract/events';
import {
  keepWorking,
  openDubdesk,
  systemKeyStore,
  type DubdeskHost,
  type KeyStore,
  type QueueWorker,
} from '../engine/index';
import { startBuiltInSandbox } from '../sandbox/builtin';
import { startSandbox } from '../sandbox/server';
import { settle } from './settle';
import { engineDiagnostics } from './engine-diagnostics';
import type { EngineInit, FromEngine, ToEngine } from './engine-protocol';

export interface EnginePort {
  post(message: FromEngine): void;
  listen(handler: (message: ToEngine) => void): void;
}

/** Time between two tries to start the worker when it could not (another process holds the queue). */
const RETRY_MS = 15_000;

export async function openEngine(init: EngineInit): Promise<DubdeskHost> {
  let keyStore: KeyStore | undefined;
  if (init.keyStore === 'system') keyStore = await systemKeyStore({ home: init.home, fileFallback: 'ask' });
  const sandbox = init.sandbox;
  return openDubdesk({
    home: init.home,
    face: 'electron',
    appVersion: init.appVersion,
    ...(keyStore ? { keyStore } : {}),
    ...(init.service ? { service: init.service } : {}),
    ...(init.backoff ? { backoff: init.backoff } : {}),
    ...(init.checkOutputs ? { checkOutputs: true } : {}),
    ...(sandbox
      ? {
          // The app's own sandbox keeps its state in the home (and shares it with the CLI); tests may
          // ask for a quicker pipeline, still with its state on disk.
          startSandbox: (stateDir: string) =>
            sandbox === 'builtin' ? startBuiltInSandbox(stateDir) : startTestSandbox(stateDir, sandbox),
        }
      : {}),
  });
}

async function startTestSandbox(stateDir: string, options: { pipelineSeconds: number; balance: number }) {
  const sb = await startSandbox({ ...options, stateDir });
  return { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey, stop: () => sb.stop() };
}

export function serveEngine(port: EnginePort, exit: () => void, open = openEngine): void {
  let host: DubdeskHost | null = null;
  let worker: QueueWorker | null = null;
  let stopping = false;
  let opened: EngineInit | null = null;
  const early: ToEngine[] = [];

  async function start(init: EngineInit): Promise<void> {
    opened = init;
    try {
      host = await open(init);
      host.api.subscribe((event: EngineEvent) => port.post({ type: 'event', event }));
      port.post({ type: 'ready' });
      worker = keepWorking(host, {
        retryMs: RETRY_MS,
        onReport: (r) => port.post({ type: 'worker', running: r.running, error: r.running ? null : r.error }),
      });
      for (const m of early.splice(0)) handle(m);
    } catch (e) {
      port.post({ type: 'failed', error: toContractError(e) });
      exit();
    }
  }

  async function stop(graceMs: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    worker?.stop('drain');
    const deadline = setTimeout(() => worker?.stop('cut'), graceMs);
    await worker?.stopped;
    clearTimeout(deadline);
    await host?.close();
    port.post({ type: 'stopped' });
    exit();
  }

  function handle(message: ToEngine): void {
    if (message.type === 'init') {
      void start(message.init);
      return;
    }
    if (!host) {
      if (message.type === 'stop') exit();
      else early.push(message);
      return;
    }
    const api = host.api;
    switch (message.type) {
      case 'call': {
        const { id, method, arg } = message;
        void settle(() => (api[method] as (a: unknown) => Promise<unknown>)(arg)).then((reply) =>
          port.post({ type: 'reply', id, reply }),
        );
        return;
      }
      case 'wake':
        host.wake();
        worker?.nudge();
        return;
      case 'hold':
        worker?.hold(message.on);
        return;
      case 'diagnose': {
        const { id } = message;
        const init = opened;
        void settle(async () => (init ? engineDiagnostics(init, api) : '')).then((reply) =>
          port.post({ type: 'reply', id, reply }),
        );
        return;
      }
      case 'stop':
        void stop(message.graceMs);
        return;
    }
  }

  port.listen(handle);
}

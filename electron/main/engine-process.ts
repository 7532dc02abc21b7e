/**
 * The engine's side of the utility process: opens the engine, works the queue for as long as the app runs
 * (`run({ untilDone: false })`), answers contract calls and forwards events. Stops gently: the HTTP call in
 * flight finishes (or is cut after a grace period) and every job resumes next time.
 */
import { toContractError } from '../../shared/contract/errors';
import type { EngineEvent } from '../../shared/contract/events';
import type { DubdeskApi } from '../../shared/contract/methods';
import { openDubdesk, systemKeyStore, type DubdeskHost, type KeyStore } from '../engine/index';
import { startBuiltInSandbox } from '../sandbox/builtin';
import { startSandbox } from '../sandbox/server';
import { settle } from './channels';
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
  let stopping = false;
  let hold = false;
  let concurrency = 2;
  let pollMs = 3000;
  let drain = new AbortController();
  let cut = new AbortController();
  let nudge: () => void = () => {};
  let worker: Promise<void> = Promise.resolve();
  const early: ToEngine[] = [];

  const waitForNudge = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      nudge = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function work(h: DubdeskHost): Promise<void> {
    while (!stopping) {
      drain = new AbortController();
      cut = new AbortController();
      if (hold) drain.abort();
      let error = null;
      try {
        port.post({ type: 'worker', running: true, error: null });
        await h.run({
          untilDone: false,
          concurrency: () => concurrency,
          pollIntervalMs: () => pollMs,
          signal: cut.signal,
          drain: drain.signal,
        });
      } catch (e) {
        error = toContractError(e);
      }
      port.post({ type: 'worker', running: false, error });
      if (stopping) return;
      // Held: wait to be let go. Failed (no key yet, another process has the queue): try again later,
      // or as soon as something changes (settings, wake).
      await waitForNudge(hold ? 2 ** 31 - 1 : RETRY_MS);
    }
  }

  function follow(api: DubdeskApi): void {
    api.subscribe((event: EngineEvent) => {
      if (event.type === 'settings') {
        const changed =
          event.settings.concurrency !== concurrency || event.settings.pollIntervalSeconds * 1000 !== pollMs;
        concurrency = event.settings.concurrency;
        pollMs = event.settings.pollIntervalSeconds * 1000;
        if (changed) host?.wake();
        nudge();
      }
      port.post({ type: 'event', event });
    });
  }
  async function start(init: EngineInit): Promise<void> {
    try {
      host = await open(init);
      const settings = await host.api.getSettings().catch(() => null);
      if (settings) {
        concurrency = settings.concurrency;
        pollMs = settings.pollIntervalSeconds * 1000;
      }
      follow(host.api);
      port.post({ type: 'ready' });
      for (const m of early.splice(0)) handle(m);
      worker = work(host);
    } catch (e) {
      port.post({ type: 'failed', error: toContractError(e) });
      exit();
    }
  }

  async function stop(graceMs: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    drain.abort();
    nudge();
    const deadline = setTimeout(() => cut.abort(), graceMs);
    await worker;
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
        nudge();
        return;
      case 'hold':
        hold = message.on;
        if (hold) drain.abort();
        nudge();
        return;
      case 'stop':
        void stop(message.graceMs);
        return;
    }
  }

  port.listen(handle);
}

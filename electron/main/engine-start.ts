import { join } from 'node:path';
import { app, dialog, utilityProcess } from 'electron';
import { EngineClient, type EngineChild } from './engine-client';
import type { EngineInit } from './engine-protocol';

export interface EngineStartOptions {
  /** Where engine.cjs is (dist/electron). */
  distDir: string;
  /** Test knobs and session overrides for the engine. */
  engine?: Partial<Omit<EngineInit, 'home' | 'appVersion'>>;
  /** Starts the engine's process (tests run it in-process). */
  forkEngine?: (entry: string) => EngineChild;
}

/** What the environment says about the service for this session (DUBDESK_* variables). */
function engineInitFromEnv(env: NodeJS.ProcessEnv): Partial<EngineInit> {
  const service = {
    ...(env.DUBDESK_BASE_URL ? { baseUrl: env.DUBDESK_BASE_URL } : {}),
    ...(env.DUBDESK_LEGACY_URL ? { legacyUrl: env.DUBDESK_LEGACY_URL } : {}),
    ...(env.DUBDESK_API_KEY ? { apiKey: env.DUBDESK_API_KEY } : {}),
  };
  return {
    ...(Object.keys(service).length ? { service } : {}),
    ...(env.DUBDESK_KEY_STORE === 'file' ? { keyStore: 'file' as const } : {}),
  };
}

/**
 * The engine in its utility process, opened on `home`. When it cannot open its queue, the user is told
 * why and the app exits (null); should it stop later, the same.
 */
export async function startEngine(opts: EngineStartOptions, home: string): Promise<EngineClient | null> {
  const init: EngineInit = {
    home,
    appVersion: app.getVersion(),
    keyStore: 'system',
    sandbox: 'builtin',
    ...engineInitFromEnv(process.env),
    ...opts.engine,
  };
  const fork =
    opts.forkEngine ??
    ((entry: string) =>
      utilityProcess.fork(entry, [], {
        serviceName: 'Dubdesk engine',
        stdio: 'inherit',
      }) as unknown as EngineChild);
  const engine = new EngineClient(() => fork(join(opts.distDir, 'engine.cjs')), init);
  try {
    await engine.start();
  } catch (e) {
    const err = e as { message?: string; remedy?: string };
    dialog.showErrorBox(
      'Dubdesk cannot open its queue',
      [err.message, err.remedy].filter(Boolean).join('\n\n'),
    );
    app.exit(1);
    return null;
  }
  engine.onFatal = (error) => {
    dialog.showErrorBox('Dubdesk’s engine stopped', error.message);
    app.exit(1);
  };
  return engine;
}

import { join } from 'node:path';
import { app, dialog, utilityProcess } from 'electron';
import { EngineClient, type EngineChild } from './engine-client';
import { EngineOutput, remedyFor } from './engine-output';
import type { EngineInit } from './engine-protocol';
import { shellLogFile } from './shell-log';
import { systemProxyEnv } from './system-proxy';

const direct = async () => 'DIRECT';

export interface EngineStartOptions {
  /** Where engine.cjs is (dist/electron). */
  distDir: string;
  /** Test knobs and session overrides for the engine. */
  engine?: Partial<Omit<EngineInit, 'home' | 'appVersion'>>;
  /** Starts the engine's process with its environment (tests run it in-process). */
  forkEngine?: (entry: string, env: NodeJS.ProcessEnv) => EngineChild;
  /** The system's proxy for a URL, as a PAC answer (the session's resolveProxy). */
  resolveProxy?: (url: string) => Promise<string>;
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

/** A failure's message and fix, then what the engine printed last and where the whole of it is. */
async function failureText(
  error: { message?: string; remedy?: string },
  output: EngineOutput,
  logFile: string,
): Promise<string> {
  const said = await output.tail();
  return [
    error.message,
    remedyFor(said) ?? error.remedy,
    said.length ? `The engine said:\n${said.join('\n')}` : null,
    `Details are in ${logFile}.`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The engine in its utility process, opened on `home`, its output piped to the shell's log. When it cannot
 * open its queue, the user is told why (with what it printed and the log's path) and the app exits (null);
 * should it stop later, the same.
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
    ((entry: string, env: NodeJS.ProcessEnv) =>
      utilityProcess.fork(entry, [], {
        serviceName: 'Dubdesk engine',
        stdio: 'pipe',
        env,
      }) as unknown as EngineChild);
  const env = { ...process.env, ...(await systemProxyEnv(opts.resolveProxy ?? direct, process.env)) };
  const logFile = shellLogFile(home);
  const output = new EngineOutput(logFile);
  const engine = new EngineClient(() => output.follow(fork(join(opts.distDir, 'engine.cjs'), env)), init);
  try {
    await engine.start();
  } catch (e) {
    dialog.showErrorBox('Dubdesk cannot open its queue', await failureText(e as Error, output, logFile));
    app.exit(1);
    return null;
  }
  engine.onFatal = (error) =>
    void failureText(error, output, logFile).then((text) => {
      dialog.showErrorBox('Dubdesk’s engine stopped', text);
      app.exit(1);
    });
  return engine;
}

import type { Command } from 'commander';
import { ApiError } from '../engine/api/errors';
import { resolveConfig, type ResolvedConfig } from '../engine/config';
import { Engine, type EngineOptions } from '../engine/engine';
import { ConfigError } from '../engine/errors';
import { startSandbox, type Sandbox } from '../sandbox/server';

export interface GlobalFlags {
  home?: string;
  baseUrl?: string;
  legacyUrl?: string;
}

export interface CliSession {
  engine: Engine;
  config: ResolvedConfig;
  /** Set when no API key is configured: the built-in simulator stands in for the service. */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

/** Test knob: retries come sooner when the sandbox injects faults in quick succession. */
function backoffFromEnv(): EngineOptions['backoff'] {
  const base = Number(process.env.DUBDESK_RETRY_BASE_MS);
  return Number.isFinite(base) && base > 0 ? { baseMs: base, capMs: Math.max(base * 16, 2000) } : undefined;
}

/** Opens the engine for one command: flag over env over stored settings, or the embedded sandbox. */
export async function openSession(
  cmd: Command,
  opts: { needsService: boolean; quiet?: boolean },
): Promise<CliSession> {
  const flags = cmd.optsWithGlobals<GlobalFlags>();
  const config = resolveConfig(flags);
  let sandbox: Sandbox | null = null;
  let service = {
    baseUrl: config.baseUrl ?? 'http://127.0.0.1:9',
    legacyUrl: config.legacyUrl,
    apiKey: config.apiKey ?? '',
  };
  if (opts.needsService) {
    if (!config.apiKey && !config.baseUrl) {
      sandbox = await startSandbox({ pipelineSeconds: 4, balance: 3600 });
      service = { baseUrl: sandbox.baseUrl, legacyUrl: sandbox.legacyUrl, apiKey: 'sandbox-key' };
      if (!opts.quiet) {
        process.stderr.write(
          'No API key configured: using the built-in sandbox (a simulator: it does not translate).\n' +
            'For the real service: `dubdesk login --base-url URL` (key on stdin) or DUBDESK_API_KEY + DUBDESK_BASE_URL.\n',
        );
      }
    } else if (!config.apiKey) {
      throw new ApiError(
        'auth',
        'no API key: set DUBDESK_API_KEY or run `dubdesk login` (the key is read from stdin)',
      );
    } else if (!config.baseUrl) {
      throw new ConfigError('an API key is set but no service address: set --base-url or DUBDESK_BASE_URL');
    }
  }
  const backoff = backoffFromEnv();
  const engine = new Engine({ home: config.home, service, ...(backoff ? { backoff } : {}) });
  return {
    engine,
    config,
    sandbox,
    async close() {
      engine.close();
      await sandbox?.stop();
    },
  };
}

export async function withSession<T>(
  cmd: Command,
  opts: { needsService: boolean; quiet?: boolean },
  fn: (s: CliSession) => Promise<T>,
): Promise<T> {
  const session = await openSession(cmd, opts);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

import { chosenHome } from './home-choice';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { AppInfo } from '../../shared/contract/account';
import type { DubdeskApi } from '../../shared/contract/methods';
// Types only: the engine and the sandbox load when a command opens a session, so `--help` stays quick.
import type { DubdeskHost, EngineOptions, KeyStore, systemKeyStore } from '../engine/index';
import { version } from './version';

export interface GlobalFlags {
  home?: string;
  baseUrl?: string;
  legacyUrl?: string;
}

export interface CliSession {
  host: DubdeskHost;
  api: DubdeskApi;
  /** The built-in simulator stands in for the service (no API key configured). */
  sandbox: boolean;
  close(): Promise<void>;
}

/** Test knob: retries come sooner when the sandbox injects faults in quick succession. */
function backoffFromEnv(): EngineOptions['backoff'] {
  const base = Number(process.env.DUBDESK_RETRY_BASE_MS);
  return Number.isFinite(base) && base > 0 ? { baseMs: base, capMs: Math.max(base * 16, 2000) } : undefined;
}

/** Test knobs: a watched file is taken sooner, folders are rescanned more often. */
function watchFromEnv(): EngineOptions['watch'] {
  const settle = Number(process.env.DUBDESK_WATCH_SETTLE_MS);
  const rescan = Number(process.env.DUBDESK_WATCH_RESCAN_MS);
  return {
    ...(Number.isFinite(settle) && settle > 0 ? { settleMs: settle } : {}),
    ...(Number.isFinite(rescan) && rescan > 0 ? { pollMs: rescan, eventRescanMs: rescan } : {}),
  };
}

const nonEmpty = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== '');

export interface SessionOptions {
  needsService: boolean;
  quiet?: boolean;
  /** Which face the engine reports in `appInfo` (`serve` is the web face). */
  face?: AppInfo['shell'];
  /** The built-in sandbox for this session, whatever is configured (`serve --sandbox`). */
  sandbox?: boolean;
  /**
   * Checks that need the queue's database but no file or service (a preset's name): run before anything
   * is said or started, so a refused command says only why.
   */
  check?: (api: DubdeskApi) => Promise<void>;
}

/**
 * The key store the desktop app uses too (one key for both): the OS credential store, else the owner-only
 * file. `login` is the user asking to save it, so no store on this system means the file, said aloud there.
 * The browser (`serve`) saves keys from its Settings, which must ask first, as the desktop app does.
 * DUBDESK_KEY_STORE=file keeps the OS store out of it (scripts, tests).
 */
async function keyStoreFor(
  home: string,
  open: typeof systemKeyStore,
  face: AppInfo['shell'],
): Promise<KeyStore | undefined> {
  if (process.env.DUBDESK_KEY_STORE === 'file') return undefined;
  return open({ home, fileFallback: face === 'web' ? 'ask' : 'allowed' });
}

/** Marks, in the data folder, that the sandbox notice was shown. */
const SANDBOX_NOTICE_SEEN = 'sandbox-notice-shown';

/**
 * True the first time it is asked for `name` in this data folder (a marker file is created): a notice
 * repeated on every command is noise that hides the lines that matter.
 */
function firstTimeIn(home: string, name: string): boolean {
  try {
    closeSync(openSync(join(home, name), 'wx', 0o600));
    return true;
  } catch (e) {
    // Already there: said before. A folder that cannot be written: say it every time rather than never.
    return (e as NodeJS.ErrnoException).code !== 'EEXIST';
  }
}

/** Opens the engine for one command: flags over DUBDESK_* variables over what `login` stored. */
export async function openSession(cmd: Command, opts: SessionOptions): Promise<CliSession> {
  const flags = cmd.optsWithGlobals<GlobalFlags>();
  const env = process.env;
  const baseUrl = nonEmpty(flags.baseUrl, env.DUBDESK_BASE_URL);
  const legacyUrl = nonEmpty(flags.legacyUrl, env.DUBDESK_LEGACY_URL);
  const apiKey = nonEmpty(env.DUBDESK_API_KEY);
  const backoff = backoffFromEnv();
  const engine = await import('../engine/index');
  const home = chosenHome(flags.home, env, engine.defaultHome);
  const keyStore = await keyStoreFor(home, engine.systemKeyStore, opts.face ?? 'cli');
  const host = engine.openDubdesk({
    home,
    face: opts.face ?? 'cli',
    ...(keyStore ? { keyStore } : {}),
    appVersion: version,
    // Relative paths start here in a terminal; a web page (`serve`) has no working folder of its own.
    ...((opts.face ?? 'cli') === 'cli' ? { cwd: process.cwd() } : {}),
    service: {
      ...(baseUrl ? { baseUrl } : {}),
      ...(legacyUrl ? { legacyUrl } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(opts.sandbox ? { sandbox: true } : {}),
    },
    startSandbox: async (stateDir) => (await import('../sandbox/builtin')).startBuiltInSandbox(stateDir),
    ...(backoff ? { backoff } : {}),
    watch: watchFromEnv(),
  });
  const { api } = host;
  try {
    await opts.check?.(api);
  } catch (e) {
    await host.close();
    throw e;
  }
  const sandbox = (await api.getSettings()).service.mode === 'sandbox';
  if (opts.needsService && sandbox && !opts.quiet && firstTimeIn(home, SANDBOX_NOTICE_SEEN)) {
    process.stderr.write(
      'No API key configured: using the built-in sandbox (a simulator: it does not translate).\n' +
        'For the real service: `dubdesk login --base-url URL` (key on stdin) or DUBDESK_API_KEY + DUBDESK_BASE_URL.\n' +
        '(Said once for this data folder; `dubdesk me` shows which service is used.)\n',
    );
  }
  return { host, api, sandbox, close: () => host.close() };
}

export async function withSession<T>(
  cmd: Command,
  opts: SessionOptions,
  fn: (s: CliSession) => Promise<T>,
): Promise<T> {
  const session = await openSession(cmd, opts);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

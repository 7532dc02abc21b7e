import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../electron/sandbox/server';

export const CLI = fileURLToPath(new URL('../../electron/cli/dubdesk.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment a user would set for a sandbox: flag-free, through DUBDESK_* variables. */
export function envFor(sb: Sandbox, home: string, apiKey = sb.account.apiKey): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DUBDESK_HOME: home,
    DUBDESK_BASE_URL: sb.baseUrl,
    DUBDESK_LEGACY_URL: sb.legacyUrl,
    DUBDESK_API_KEY: apiKey,
    DUBDESK_RETRY_BASE_MS: '50',
  };
}

export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliResult> {
  return startCli(args, env, cwd).done;
}

/**
 * Runs `dubdesk ARGS` until it says it is held at `point` (`DUBDESK_TEST_HOLD_AT`), then kills it with
 * SIGKILL: a crash at exactly that point. Throws, saying what it printed, when it ends or is still short of
 * the point after `ms`.
 */
export async function killedAtHold(
  point: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ms = 90_000,
): Promise<void> {
  const cli = startCli(args, { ...env, DUBDESK_TEST_HOLD_AT: point });
  let said = '';
  try {
    const held = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      cli.child.stderr?.on('data', (d: Buffer) => {
        said += d.toString();
        if (said.includes(`held at ${point}`)) resolve(true);
      });
      void cli.done.then(() => resolve(false));
      cli.child.once('close', () => clearTimeout(timer));
    });
    if (!held) throw new Error(`dubdesk ${args.join(' ')} never held at ${point}; it said: ${said}`);
  } finally {
    cli.child.kill('SIGKILL');
  }
  const end = await cli.done;
  if (end.signal !== 'SIGKILL') throw new Error(`dubdesk ${args.join(' ')} was not killed: ${end.stderr}`);
}

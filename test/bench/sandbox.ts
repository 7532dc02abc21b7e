import { spawn, type ChildProcess } from 'node:child_process';
import type { SandboxOptionsInput } from '../../electron/sandbox/options';
import { bundled } from './child';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
export const API_KEY = 'sandbox-key';

export interface BenchSandbox {
  baseUrl: string;
  child: ChildProcess;
  /** The sandbox's `/__sandbox/state` (requests by route, what arrived). */
  state(): Promise<SandboxReport>;
  stop(): Promise<void>;
}

export interface SandboxReport {
  requests: Record<string, number>;
  ingest: { createsFromFile: number; createsFromOwnLink: number; fileBytes: number; putBytes: number };
  ledger: unknown[];
}

/**
 * Starts `sandbox-child.ts` with these options; the child is the only thing in its process. It runs bundled,
 * as `dubdesk sandbox` ships, not under the TypeScript loader: under tsx its heap is larger, every one of
 * the ~30 full garbage collections a GiB of socket reads brings costs more, and the sandbox, not the client
 * the upload figures compare with curl, set the pace.
 */
export async function benchSandbox(options: SandboxOptionsInput): Promise<BenchSandbox> {
  const child = spawn(
    process.execPath,
    [
      await bundled('./sandbox-child.ts'),
      JSON.stringify({ port: 0, adminToken: ADMIN_TOKEN, apiKey: API_KEY, ...options }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /base URL (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then(() => reject(new Error('the bench sandbox exited before it listened')));
  });
  return {
    baseUrl,
    child,
    async state() {
      const r = await fetch(`${baseUrl}/__sandbox/state`, { headers: { 'x-sandbox-admin': ADMIN_TOKEN } });
      return (await r.json()) as SandboxReport;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

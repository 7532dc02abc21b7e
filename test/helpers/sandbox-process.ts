import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { CLI } from './cli';

/** `dubdesk sandbox` as a child process: a crash shows as an exit, not as an error inside the test runner. */
export interface SandboxProcess {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  adminToken: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<string>;
  alive(): boolean;
  stop(): Promise<void>;
}

export const CHILD_ADMIN_TOKEN = 'child-process-admin-token-0123456789';

/** `port: 'remembered'` leaves --port out, so a --state-dir's last port (else 8787, else any) is used. */
export async function startSandboxProcess(
  args: string[] = [],
  opts: { port?: 'any' | 'remembered' } = {},
): Promise<SandboxProcess> {
  const port = opts.port === 'remembered' ? [] : ['--port', '0'];
  const child = spawn(
    process.execPath,
    [CLI, 'sandbox', ...port, '--admin-token', CHILD_ADMIN_TOKEN, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let gone = false;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => {
      gone = true;
      resolve(signal ?? `code ${code}`);
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /base URL (http:\/\/\S+)/.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then((how) => reject(new Error(`sandbox exited (${how}) before it started: ${stderr}`)));
  });
  return {
    child,
    baseUrl,
    port: Number(new URL(baseUrl).port),
    adminToken: CHILD_ADMIN_TOKEN,
    stderr: () => stderr,
    exited,
    alive: () => !gone,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RawReply {
  /** The status line's code, or 0 when the connection closed without an answer. */
  status: number;
  text: string;
}

/**
 * Writes `chunks` on a raw socket (optionally closing or destroying it after them) and collects whatever
 * comes back until the server closes or `waitMs` passes. For requests fetch cannot express.
 */
export function rawRequest(
  port: number,
  chunks: (string | Buffer)[],
  opts: { end?: 'half-close' | 'destroy' | 'keep'; waitMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    };
    const timer = setTimeout(finish, opts.waitMs ?? 2_000);
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      const write = (i: number): void => {
        if (i >= chunks.length) {
          if (opts.end === 'destroy') finish();
          else if (opts.end === 'half-close') socket.end();
          return;
        }
        const chunk = chunks[i] ?? '';
        if (socket.write(chunk)) write(i + 1);
        else socket.once('drain', () => write(i + 1));
      };
      write(0);
    });
  });
}

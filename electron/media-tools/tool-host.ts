import { spawn, type ChildProcess } from 'node:child_process';
import { z } from 'zod';
import { spawnRun, type Running, type ToolEnd, type ToolRun } from './spawn-run';
import { toolHostSource, type HostRequest } from './tool-host-program';

/**
 * The tool host died while the tool ran (killed, out of memory): the tool was stopped with it. Not a
 * MediaToolError: nothing is known of the file, and what asked for the run fails and is tried again.
 */
export class ToolHostGoneError extends Error {
  override name = 'ToolHostGoneError';
  constructor() {
    super('the helper process that runs ffmpeg stopped: it is started again on the next try');
  }
}

const Reply = z.discriminatedUnion('type', [
  z.object({ type: z.literal('spawned'), id: z.number(), pid: z.number() }),
  z.object({
    type: z.literal('end'),
    id: z.number(),
    end: z.object({
      stdout: z.string(),
      stderr: z.string(),
      exitCode: z.number().nullable(),
      signal: z.string().nullable(),
      timedOut: z.boolean(),
      canceled: z.boolean(),
      overflow: z.boolean(),
      startError: z.string().nullable(),
    }),
  }),
]);

/** SIGKILL to a tool (its whole group when it has one); one already gone is left be. */
function killGroup(pid: number, ownGroup: boolean): void {
  try {
    process.kill(ownGroup ? -pid : pid, 'SIGKILL');
  } catch {
    // Over already.
  }
}

interface Pending {
  run: ToolRun;
  onSpawn: (pid: number) => void;
  resolve: (end: ToolEnd) => void;
  reject: (e: Error) => void;
  /** The tool's process id, once the host started it. */
  pid: number | null;
  /** Hosts it was sent to: one that dies before starting it hands it to one more, then to this process. */
  hosts: number;
}

/**
 * A small Node process, started when the first tool is run, that spawns the media tools for the engine.
 * Forking a process copies its memory map: from the engine (a few hundred MB) each ffmpeg cost its CPU
 * several milliseconds; from the host (a bare Node) it costs the host, and the engine sends one message.
 */
class ToolHost {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(run: ToolRun, onSpawn: (pid: number) => void, hosts = 1): Running {
    const id = this.nextId++;
    const done = new Promise<ToolEnd>((resolve, reject) => {
      this.pending.set(id, { run, onSpawn, resolve, reject, pid: null, hosts });
    });
    this.send({ type: 'run', id, run });
    return {
      done,
      cancel: () => this.child?.connected && this.child.send({ type: 'cancel', id } satisfies HostRequest),
      kill: () => this.child?.connected && this.child.send({ type: 'cancel', id } satisfies HostRequest),
    };
  }

  /** Stops the host (it kills what still runs) and waits until it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.disconnect();
    const force = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(force);
  }

  private send(request: HostRequest): void {
    const child = this.ensure();
    child.ref();
    child.channel?.ref();
    child.send(request);
  }

  private ensure(): ChildProcess {
    if (this.child?.connected) return this.child;
    const child = spawn(process.execPath, ['-e', toolHostSource(spawnRun)], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      // Out of the terminal's process group, as the tools are (run.ts): a Ctrl+C is for the engine, whose
      // drain lets a rebuild finish. The host ends when the engine does, by its channel closing.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    child.on('message', (m: unknown) => this.heard(m));
    child.once('exit', () => this.gone(child));
    // A send the host can no longer take is answered by its exit.
    child.on('error', () => {});
    this.child = child;
    return child;
  }

  private heard(message: unknown): void {
    const reply = Reply.safeParse(message);
    if (!reply.success) return;
    const p = this.pending.get(reply.data.id);
    if (!p) return;
    if (reply.data.type === 'spawned') {
      p.pid = reply.data.pid;
      p.onSpawn(reply.data.pid);
      return;
    }
    this.pending.delete(reply.data.id);
    p.resolve(reply.data.end);
    this.idleUnref();
  }

  /**
   * The host exited: runs that never started go to a new host; the others failed with it, and their tools,
   * which a host killed with -9 could not stop, are stopped here (their process group: see run.ts).
   */
  private gone(child: ChildProcess): void {
    if (this.child === child) this.child = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) {
      if (p.pid !== null) {
        killGroup(p.pid, p.run.ownGroup);
        p.reject(new ToolHostGoneError());
      } else {
        const again = p.hosts < 2 ? this.start(p.run, p.onSpawn, p.hosts + 1) : spawnRun(p.run, p.onSpawn);
        again.done.then(p.resolve, p.reject);
      }
    }
  }

  /** Idle, the host keeps nothing of the engine's process alive. */
  private idleUnref(): void {
    if (this.pending.size > 0 || !this.child) return;
    this.child.unref();
    this.child.channel?.unref();
  }
}

let host: ToolHost | null = null;
let holders = 0;

/**
 * Whether tools go through a host. Not in Electron: its binary runs as Node only with the RunAsNode fuse,
 * which the packaged app has off (electron-builder.yml), so there the engine spawns them itself.
 */
const hostable = () => !process.versions.electron && process.env.DUBDESK_TOOL_HOST !== 'off';

/**
 * An engine is open in this process: tools go through the host (started at the first run) until the last
 * holder lets go, which stops it. Returns the release.
 */
export function holdToolHost(): () => Promise<void> {
  holders++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--holders > 0 || !host) return;
    const stopping = host;
    host = null;
    await stopping.stop();
  };
}

/** Starts a tool: through the host while an engine holds it, else from this process. */
export function startTool(run: ToolRun, onSpawn: (pid: number) => void): Running {
  if (holders === 0 || !hostable()) return spawnRun(run, onSpawn);
  host ??= new ToolHost();
  return host.start(run, onSpawn);
}

/** The host's process id while it runs (for tests and diagnostics). */
export const toolHostPid = (): number | undefined => host?.pid;

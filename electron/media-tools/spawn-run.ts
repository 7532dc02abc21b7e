/** One media tool to run: plain data, so that it can cross to the tool host (tool-host.ts) as it is. */
export interface ToolRun {
  file: string;
  args: readonly string[];
  /** Stopped after this long: SIGTERM, then SIGKILL `forceKillAfterMs` later. */
  timeoutMs: number;
  forceKillAfterMs: number;
  /** In a process group of its own (see run.ts). */
  ownGroup: boolean;
  /** The most kept of stdout and of stderr; a tool that says more is stopped. */
  maxBuffer: number;
}

/** How a run ended, as plain data. */
export interface ToolEnd {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Stopped by `cancel()` (the job's signal). */
  canceled: boolean;
  /** It said more than `maxBuffer` on stdout or stderr, and was stopped. */
  overflow: boolean;
  /** It could not be started: the system's code (ENOENT, EACCES, …). */
  startError: string | null;
}

export interface Running {
  done: Promise<ToolEnd>;
  /** Stops it as a timeout would (SIGTERM, then SIGKILL): the job was paused or canceled. */
  cancel(): void;
  /** SIGKILL at once, to its whole group: whoever wanted it is gone. */
  kill(): void;
}

/**
 * Runs a media tool with Node's own `spawn`: stdin closed, stdout and stderr kept, a timeout, and a kill
 * that goes on to SIGKILL. SELF-CONTAINED (no imports, no names from outside; Node's modules through
 * `process.getBuiltinModule`): its source text is also run in the tool host's process.
 */
export function spawnRun(run: ToolRun, onSpawn: (pid: number) => void): Running {
  const { spawn } = process.getBuiltinModule('node:child_process');
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sizes = { out: 0, err: 0 };
  const end = { timedOut: false, canceled: false, overflow: false, startError: null as string | null };
  const child = spawn(run.file, [...run.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: run.ownGroup,
    windowsHide: true,
  });
  let forceTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    forceTimer ??= setTimeout(() => child.kill('SIGKILL'), run.forceKillAfterMs);
  };
  const timer = setTimeout(() => {
    end.timedOut = true;
    stop();
  }, run.timeoutMs);
  const keep = (into: Buffer[], key: 'out' | 'err') => (chunk: Buffer) => {
    sizes[key] += chunk.length;
    if (sizes[key] > run.maxBuffer) {
      end.overflow = true;
      stop();
      return;
    }
    into.push(chunk);
  };
  child.stdout.on('data', keep(out, 'out'));
  child.stderr.on('data', keep(err, 'err'));
  if (child.pid !== undefined) onSpawn(child.pid);
  // A final newline is not part of what a tool says (as execa, which this replaces, kept it).
  const text = (chunks: Buffer[]) =>
    Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  const done = new Promise<ToolEnd>((resolve) => {
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(forceTimer);
      resolve({ stdout: text(out), stderr: text(err), exitCode, signal, ...end });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        end.startError = e.code ?? 'ENOENT';
        finish(null, null);
      }
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
  return {
    done,
    cancel() {
      end.canceled = true;
      stop();
    },
    kill() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (run.ownGroup) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}

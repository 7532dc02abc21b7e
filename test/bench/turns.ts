/**
 * Batches taken in turns by processes of their own: the parent tells each child when to run its next batch
 * (over Node's IPC channel), and each child reports its own CPU counters, read with `process.cpuUsage()`
 * (every thread of the process: its garbage collector's and its thread pool's too). Two processes never
 * collect each other's garbage, as two sides in one process do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { bundled } from './child';

/** A process's CPU time so far, in microseconds. */
export interface Cpu {
  user: number;
  system: number;
}

/** What a child says after a batch: its counters as the batch began and as it ended. */
export interface BatchReport {
  start: Cpu;
  end: Cpu;
  wallMs: number;
  /** The child's own figures for the batch beside the CPU (the engine's: its tool host's CPU). */
  extra: Record<string, number>;
}

type ToChild = { type: 'batch'; b: number } | { type: 'finish' };
type FromChild =
  | { type: 'ready' }
  | ({ type: 'batch' } & BatchReport)
  | { type: 'finish'; now: Cpu }
  | { type: 'error'; message: string };

/** The parent's side: a bundled script started with `arg`, once it said it is ready for its first batch. */
export interface TurnChild {
  pid: number | undefined;
  batch(b: number): Promise<BatchReport>;
  /** Its counters now (after the last batch and whatever ran after it), then it exits. */
  finish(): Promise<Cpu>;
  kill(): void;
}

export async function startTurnChild(
  script: string,
  arg: unknown,
  nodeArgs: string[] = [],
): Promise<TurnChild> {
  const child = spawn(process.execPath, [...nodeArgs, await bundled(script), JSON.stringify(arg)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${script} exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (m: FromChild) => {
        child.off('exit', onExit);
        if (m.type === 'error') reject(new Error(`${script}: ${m.message}`));
        else resolve(m);
      });
    });
  const ask = async (m: ToChild): Promise<FromChild> => {
    const answer = next();
    child.send(m);
    return answer;
  };
  if ((await next()).type !== 'ready') throw new Error(`${script} did not say it was ready`);
  return {
    pid: child.pid,
    async batch(b) {
      const m = await ask({ type: 'batch', b });
      if (m.type !== 'batch') throw new Error(`${script} answered batch ${b} with ${m.type}`);
      return m;
    },
    async finish() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const m = await ask({ type: 'finish' });
      if (m.type !== 'finish') throw new Error(`${script} answered finish with ${m.type}`);
      await exited;
      return m.now;
    },
    kill: () => killChild(child),
  };
}

function killChild(child: ChildProcess): void {
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * The child's side: `prepare` runs before the first turn (files made, the engine opened: none of it timed),
 * `run(b)` is batch `b`, `close` after the last counters were read.
 */
export function serveTurns(turns: {
  prepare(): Promise<void>;
  run(b: number): Promise<Record<string, number>>;
  close(): Promise<void>;
}): void {
  const send = (m: FromChild) => process.send?.(m);
  const fail = (e: unknown) => {
    send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    process.exitCode = 1;
    process.disconnect?.();
  };
  process.on('message', (m: ToChild) => {
    if (m.type === 'finish') {
      const now = process.cpuUsage();
      // Whatever handle the work left open, the child is done once its counters are sent.
      void turns.close().then(() => process.send?.({ type: 'finish', now }, () => process.exit(0)), fail);
      return;
    }
    const start = process.cpuUsage();
    const t0 = performance.now();
    turns.run(m.b).then((extra) => {
      const end = process.cpuUsage();
      send({ type: 'batch', start, end, wallMs: performance.now() - t0, extra });
    }, fail);
  });
  turns.prepare().then(() => send({ type: 'ready' }), fail);
}

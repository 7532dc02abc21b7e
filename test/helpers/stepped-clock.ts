/**
 * `dubdesk` children on a machine clock a test can step (fake-clock.mjs): their wall clock reads the real one
 * plus the offset in a file, their timers and monotonic clocks keep real time, as after NTP steps the clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli';

const FAKE_CLOCK = fileURLToPath(new URL('./fake-clock.mjs', import.meta.url));

export interface SteppedClock {
  /** `dubdesk ARGS` on this clock. */
  spawn(args: string[], env: NodeJS.ProcessEnv): ChildProcess;
  /** What `ARGS` printed and how it ended, on this clock. */
  ran(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }>;
  /** Steps the clock of every child started from now on (a running one reads it again on SIGUSR2). */
  step(offsetMs: number): void;
}

/** A clock at the real time for now, its offset kept in `dir`. */
export function steppedClock(dir: string): SteppedClock {
  const file = join(dir, 'clock-offset-ms');
  writeFileSync(file, '0');
  const start = (args: string[], env: NodeJS.ProcessEnv) =>
    spawn(process.execPath, ['--import', FAKE_CLOCK, CLI, ...args], {
      env: { ...env, DUBDESK_TEST_CLOCK_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  return {
    spawn: start,
    async ran(args, env) {
      const child = start(args, env);
      let out = '';
      let err = '';
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { code, out, err };
    },
    step: (offsetMs) => writeFileSync(file, String(offsetMs)),
  };
}

import { spawn } from 'node:child_process';

/**
 * Runs `count` copies of a contender script that each try to take a lock at the same instant: every one
 * prints `ready` once loaded, the test then sends all of them one start time, and each prints its outcome
 * and keeps whatever it took until the test is done (so a late starter cannot find the lock free again).
 */
export async function contend(script: string, args: string[], count: number): Promise<string[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = children.map((c) => {
    const out: string[] = [];
    let buf = '';
    const waiters: (() => void)[] = [];
    c.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      out.push(...parts);
      for (const w of waiters.splice(0)) w();
    });
    const next = async (): Promise<string> => {
      while (out.length === 0) await new Promise<void>((r) => waiters.push(r));
      return out.shift() ?? '';
    };
    return next;
  });
  try {
    for (const next of lines) if ((await next()) !== 'ready') throw new Error('a contender did not start');
    const startAt = Date.now() + 100;
    for (const c of children) c.stdin.write(`${startAt}\n`);
    return await Promise.all(lines.map((next) => next()));
  } finally {
    for (const c of children) c.stdin.end();
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))),
    );
  }
}

/** In a contender: say ready, wait for the start time, spin to it, run `take`, then hold until stdin ends. */
export async function contender(take: () => Promise<string> | string): Promise<void> {
  process.stdout.write('ready\n');
  const startAt = await new Promise<number>((resolve) => {
    let buf = '';
    process.stdin.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(Number(buf.trim()));
    });
  });
  while (Date.now() < startAt) {
    /* spin: every contender leaves the line within the same millisecond */
  }
  process.stdout.write(`${await take()}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

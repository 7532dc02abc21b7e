import { spawn } from 'node:child_process';

/** Runs a bench script in a fresh Node process (through tsx) and parses the JSON of its last stdout line. */
export function runChild<T>(script: string, arg: unknown, nodeArgs: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeArgs, '--import', 'tsx', new URL(script, import.meta.url).pathname, JSON.stringify(arg)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`${script} exited with ${code}`);
        resolve(JSON.parse(last) as T);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

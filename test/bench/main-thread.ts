/**
 * `npm run bench:main-thread`: how long the engine blocks the thread that hosts it, as the desktop shell
 * would host it (in its main process), while a user works: a large estimate and add, a batch running.
 * The sandbox runs in its own process so its work is not counted. Prints the longest block of each phase.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDubdesk } from '../../electron/engine/index';
import { CLI } from '../helpers/cli';
import { videoMp4 } from '../helpers/media';

const dir = mkdtempSync(join(tmpdir(), 'dubdesk-stall-'));

async function withSandbox<T>(fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--pipeline-seconds', '0.5'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /base URL (\S+)/.exec(d.toString());
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error('sandbox exited')));
    });
    return await fn(baseUrl);
  } finally {
    child.kill('SIGTERM');
  }
}

/** The longest time the event loop could not run anything while `fn` ran, in ms. */
async function longestBlock(fn: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  await fn();
  h.disable();
  return h.max / 1e6;
}

async function main(): Promise<void> {
  const video = videoMp4(2, 'stall.mp4');
  const files = Array.from({ length: Number(process.env.FILES ?? 2000) }, (_, i) => {
    const p = join(dir, `clip-${i}.mp4`);
    copyFileSync(video, p);
    return p;
  });
  await withSandbox(async (baseUrl) => {
    const host = openDubdesk({
      home: join(dir, 'home'),
      face: 'electron',
      service: { baseUrl, legacyUrl: `${baseUrl}/legacy`, apiKey: 'sandbox-key' },
    });
    const { api } = host;
    api.subscribe(() => {});
    const to = ['es', 'fr', 'de', 'it', 'ja'];
    const out = join(dir, 'out');
    const rows: [string, number][] = [];
    rows.push([
      `estimate ${files.length} files x 5`,
      await longestBlock(() => api.estimate({ inputs: files, to, outDir: out })),
    ]);
    rows.push([
      `add ${files.length} files x 5`,
      await longestBlock(() => api.add({ inputs: files, to, outDir: out, force: true })),
    ]);
    await api.clearJobs({ filter: {} });
    await api.cancelJobs({ filter: { states: ['queued'] } });
    await api.clearJobs({ filter: {} });
    rows.push([
      'add 20 files x 2',
      await longestBlock(() =>
        api.add({ inputs: files.slice(0, 20), to: ['es', 'fr'], outDir: join(dir, 'out2'), force: true }),
      ),
    ]);
    rows.push([
      'run a batch of 40 jobs',
      await longestBlock(() => host.run({ untilDone: true, concurrency: 4, pollIntervalMs: 200 })),
    ]);
    await host.close();
    for (const [what, ms] of rows) console.log(`${what.padEnd(50)} ${ms.toFixed(1)} ms`);
  });
}

await main();

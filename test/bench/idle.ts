/**
 * `idle:` figures. `serve`'s engine on a data folder with a long history and watched folders of files
 * already taken: how long it takes to be watching them again after a restart (beside `find` walking the
 * same trees), then, over a window of doing nothing, its CPU, its wake-ups, its database commits and its
 * reads of the watched files.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { bundled, runChild } from './child';
import { median, ratioOf, round, type Figure } from './figures';
import { buildIdleHome } from './idle-home';
import { IDLE_LOOK_MS } from '../../electron/engine/runner/idle';
import { API_KEY, benchSandbox } from './sandbox';

/** The issue's sizes: 5 folders of 10,000 files, each file dubbed twice (100,000 jobs). */
const FOLDERS = 5;
const FILES_PER_FOLDER = Number(process.env.BENCH_IDLE_FILES ?? 10_000);
/**
 * The window: the idle engine's longest sleep, the runner's look for due work (every 30 s), so every kind
 * of idle wake-up falls in it at least once (the watcher's turns, every 10 s, three times). Longer adds
 * more of the same to a figure taken per second; the heartbeats (every 4 minutes) fall outside any window
 * the bench can afford, and the commit count of the tests covers them.
 */
const WINDOW_MS = Number(process.env.BENCH_IDLE_WINDOW_MS ?? IDLE_LOOK_MS);
/** The issue's budget: 0.3 s of CPU per 60 s (0.5% of a core). */
const CPU_SHARE = 0.005;

interface Ready {
  readyMs: number;
  opensAtReady: number;
  /** Since the process started: modules loaded, the data folder open. */
  phases: { loadedMs: number; openedMs: number };
}
interface Window {
  seconds: number;
  cpuMs: number;
  wakeups: number;
  callbacks: number;
  byType: Record<string, number>;
  runnerTurns: number;
  watcherTurns: number;
  sourceOpens: number;
}

function findMs(roots: readonly string[]): number {
  const t0 = performance.now();
  execFileSync('find', [...roots, '-printf', '%s %T@\n'], { stdio: ['ignore', 'ignore', 'inherit'] });
  return performance.now() - t0;
}

export async function idleFigures(work: string): Promise<Figure[]> {
  const t0 = performance.now();
  const h = await buildIdleHome(work, { folders: FOLDERS, filesPerFolder: FILES_PER_FOLDER });
  process.stderr.write(`bench: idle home built in ${round((performance.now() - t0) / 1000, 1)} s\n`);
  const sb = await benchSandbox({ pipelineSeconds: 100_000, balance: 1e9, ffmpeg: false });
  try {
    const finds = [findMs(h.roots)];
    const child = spawn(
      process.execPath,
      [
        await bundled('./idle-serve-child.ts'),
        JSON.stringify({
          home: h.home,
          roots: h.roots,
          baseUrl: sb.baseUrl,
          apiKey: API_KEY,
          windowMs: WINDOW_MS,
        }),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async <T>(): Promise<T> => {
      const { value, done } = await lines.next();
      if (done) throw new Error('the idle child exited early');
      return JSON.parse(String(value)) as T;
    };
    const ready = await next<Ready>();
    // The references, taken while serve waits to back its database up before the window (5 s after its
    // start), so they cost the section nothing.
    finds.push(findMs(h.roots));
    const watcherAlone = [(await runChild<{ readyMs: number }>('./idle-watcher-child.ts', h.roots)).readyMs];
    finds.push(findMs(h.roots));
    watcherAlone.push((await runChild<{ readyMs: number }>('./idle-watcher-child.ts', h.roots)).readyMs);
    // Commits seen by another connection: data_version moves when one was made.
    const reader = new Database(join(h.home, 'dubdesk.db'), { readonly: true });
    const version = () => Number(reader.pragma('data_version', { simple: true }));
    let commits = 0;
    let seen = version();
    const watching = setInterval(() => {
      const v = version();
      if (v !== seen) commits++;
      seen = v;
    }, 50);
    child.stdin.write('go\n');
    const w = await next<Window>();
    clearInterval(watching);
    if (version() !== seen) commits++;
    reader.close();
    child.stdin.end('stop\n');
    await new Promise((r) => child.on('exit', r));

    const files = h.files.toLocaleString('en');
    const where = `${h.jobs.toLocaleString('en')}-job home, ${FOLDERS} watched folders of ${FILES_PER_FOLDER.toLocaleString('en')} unchanged files`;
    const cpuS = w.cpuMs / 1000;
    const budget = w.seconds * CPU_SHARE;
    const perS = w.wakeups / w.seconds;
    const find = median(finds);
    return [
      {
        name: `idle: CPU over ${round(w.seconds, 0)} s doing nothing, serve on a ${where}`,
        measured: round(cpuS, 3),
        unit: 's',
        target: `<= ${round(budget, 2)} (0.5% of a core)`,
        reference: `0.5% of ${round(w.seconds, 0)} s: ${round(budget, 2)} s`,
        ratio: ratioOf(cpuS, budget),
        pass: cpuS <= budget,
      },
      {
        name: `idle: wake-ups and writes over the same ${round(w.seconds, 0)} s (wake-ups per s; runner looked ${w.runnerTurns}x, watcher ${w.watcherTurns}x)`,
        measured: round(perS, 2),
        unit: 'per s',
        target: '<= 1 per s, 0 commits, 0 reads',
        reference: `SQLite commits: ${commits}; watched files opened: ${w.sourceOpens}; callbacks: ${Object.entries(
          w.byType,
        )
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')}`,
        ratio: ratioOf(perS, 1),
        pass: perS <= 1 && commits === 0 && w.sourceOpens === 0,
      },
      {
        name: `idle: catch-up, restart with ${files} unchanged watched files -> every folder watched (files opened: ${ready.opensAtReady}; modules loaded at ${round(ready.phases.loadedMs, 0)} ms, data folder open at ${round(ready.phases.openedMs, 0)} ms)`,
        measured: round(ready.readyMs, 0),
        unit: 'ms',
        target: '<= 5x find, 0 files hashed again',
        reference: `find -printf '%s %T@' over the same trees: ${round(find, 0)} ms (@parcel/watcher alone subscribed: ${round(median(watcherAlone), 0)} ms)`,
        ratio: ratioOf(ready.readyMs, find),
        pass: ready.readyMs <= 5 * find && ready.opensAtReady === 0,
      },
    ];
  } finally {
    await sb.stop();
    h.removeFiles();
  }
}

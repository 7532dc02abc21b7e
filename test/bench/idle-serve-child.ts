/**
 * `dubdesk serve`'s engine and server in a process of their own, on the idle bench's home: prints when
 * every watched folder is watched again (the catch-up), then, told to by a line on stdin, measures a window
 * of doing nothing: CPU, wake-ups of the event loop, and opens of the watched files (hashes, probes).
 */
import { createHook } from 'node:async_hooks';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const arg = JSON.parse(process.argv[2] ?? '{}') as {
  home: string;
  roots: string[];
  baseUrl: string;
  apiKey: string;
  windowMs: number;
};
const t0 = performance.now();
const startedAt = Date.now();
const newestBackup = () =>
  fs
    .readdirSync(join(arg.home, 'backups'))
    .filter((n) => n.endsWith('.db'))
    .sort()
    .at(-1) ?? '';
const backupBefore = newestBackup();

/** BENCH_IDLE_PROFILE=<dir>: CPU profiles of the catch-up and of the window, for a profiler's viewer. */
const profileDir = process.env.BENCH_IDLE_PROFILE;
const inspector = profileDir ? new Session() : null;
async function profile(): Promise<(name: string) => Promise<void>> {
  if (!inspector || !profileDir) return async () => {};
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
  return async (name) => {
    const { profile: p } = await inspector.post('Profiler.stop');
    await fsp.writeFile(`${profileDir}/${name}.cpuprofile`, JSON.stringify(p));
  };
}
inspector?.connect();
const catchUpProfile = await profile();

// Every open of a watched file counts (a hash, a probe, an upload), however it is made.
let sourceOpens = 0;
const counted = <F extends (...a: never[]) => unknown>(f: F): F =>
  ((...a: Parameters<F>) => {
    const p = a[0] as unknown;
    if (typeof p === 'string' && arg.roots.some((r) => p.startsWith(r))) sourceOpens++;
    return f(...a);
  }) as F;
fsp.open = counted(fsp.open);
fsp.readFile = counted(fsp.readFile);
fs.open = counted(fs.open) as typeof fs.open;
fs.openSync = counted(fs.openSync);
fs.createReadStream = counted(fs.createReadStream);
fs.readFile = counted(fs.readFile) as typeof fs.readFile;
fs.readFileSync = counted(fs.readFileSync);
syncBuiltinESMExports();

const { openDubdesk, keepWorking } = await import('../../electron/engine/index');
const { startServer } = await import('../../electron/web/index');
const { loopTurns } = await import('../../electron/engine/runner/idle');
const loadedMs = performance.now() - t0;

const host = openDubdesk({
  home: arg.home,
  face: 'web',
  service: { baseUrl: arg.baseUrl, apiKey: arg.apiKey },
});
const openedMs = performance.now() - t0;
const server = await startServer({ engine: host, port: 0, rendererDir: null });
const worker = keepWorking(host, { retryMs: 30_000 });
const want = arg.roots.length;
// Read from the folders' own events (each carries the folder's view): listing every folder again at each
// event made the bench's probe, not the engine, most of the catch-up (3.9 s of 11 s in its profile).
await new Promise<void>((resolve) => {
  const watched = new Set<number>();
  // Scanned by this process: a folder's row may still say `watching` from the session before.
  const saw = (f: { id: number; status: string; lastScanAt: string | null }) => {
    if (f.status === 'watching' && f.lastScanAt && Date.parse(f.lastScanAt) >= startedAt) watched.add(f.id);
    if (watched.size >= want) resolve();
  };
  host.api.subscribe((e) => {
    if (e.type === 'watch-folder') saw(e.folder);
  });
  void host.api.listWatchFolders().then(({ folders }) => folders.forEach(saw));
});
const readyMs = performance.now() - t0;
const phases = { loadedMs, openedMs };
const opensAtReady = sourceOpens;
await catchUpProfile('catch-up');
process.stdout.write(`${JSON.stringify({ phase: 'ready', readyMs, opensAtReady, phases })}\n`);

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const told = async (word: string) => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done || String(value).trim() === word) return;
  }
};
await told('go');
// The window is the app doing nothing: it starts once the start's own work is over, the start-up backup of
// the queue database included (it copies the 100,000-job database a few pages at a time after ready).
for (let i = 0; i < 600 && newestBackup() <= backupBefore; i++) await new Promise((r) => setTimeout(r, 100));

// Wake-ups: the event loop running callbacks after waiting; callbacks less than a millisecond apart are
// one wake-up. Promise reactions run inside those and are not counted.
let wakeups = 0;
let callbacks = 0;
let last = 0;
const types = new Map<number, string>();
const promises = new Set<number>();
const byType: Record<string, number> = {};
const hook = createHook({
  init(id, type) {
    if (type === 'PROMISE') promises.add(id);
    else types.set(id, type);
  },
  before(id) {
    if (promises.has(id)) return;
    // Handles and timers made before the window (the loops' sleeps, the watchers) have no recorded type.
    const type = types.get(id) ?? 'made earlier';
    callbacks++;
    byType[type] = (byType[type] ?? 0) + 1;
    const now = performance.now();
    if (now - last > 1) wakeups++;
    last = now;
  },
  destroy(id) {
    types.delete(id);
    promises.delete(id);
  },
});
const windowProfile = await profile();
const opens0 = sourceOpens;
const turns0 = { ...loopTurns };
const cpu0 = process.cpuUsage();
const w0 = performance.now();
hook.enable();
await new Promise((r) => setTimeout(r, arg.windowMs));
hook.disable();
const cpu = process.cpuUsage(cpu0);
const seconds = (performance.now() - w0) / 1000;
await windowProfile('window');
process.stdout.write(
  `${JSON.stringify({
    phase: 'window',
    // Since the process started, as --trace-gc prints its times.
    startedAtMs: Math.round(w0),
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // The window's own timer is one of them.
    wakeups: wakeups - 1,
    callbacks,
    byType,
    runnerTurns: loopTurns.runner - turns0.runner,
    watcherTurns: loopTurns.watcher - turns0.watcher,
    sourceOpens: sourceOpens - opens0,
  })}\n`,
);
// Shutting down writes (the lock given back): the parent stops counting commits first.
await told('stop');
worker.stop('cut');
await worker.stopped;
await server.close();
await host.close();
process.exit(0);

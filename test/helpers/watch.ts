import { copyFile, open, readFile } from 'node:fs/promises';
import { vi } from 'vitest';
import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { WatchFile, WatchFolder, WatchPresetInput } from '../../shared/contract/watch';
import { openDubdesk, type DubdeskHost } from '../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { allJobs } from './engine';
import { tempDir } from './temp-dir';

/** Quick watcher figures for tests: settle in 0.4 s, poll every 0.1 s, rescan every 2 s, give up waiting after 3 s. */
export const TEST_TIMING = {
  settleMs: 400,
  maxWaitMs: 3000,
  eventRescanMs: 2000,
  pollMs: 100,
  tickMs: 50,
  idleMs: 500,
  folderSyncMs: 200,
  availabilityMs: 200,
  availabilityTimeoutMs: 2000,
};

/**
 * An engine with the quick watcher but, as by default, no timed full scans of folders watched through
 * events (what they miss stays missed), its queue paused: what the watcher alone finds is what is seen.
 */
export async function eventsOnlyEngine(sb: Sandbox): Promise<DubdeskHost> {
  const host = watchEngine(sb, tempDir(), { eventRescanMs: Number.POSITIVE_INFINITY });
  await host.api.pauseQueue();
  return host;
}

/** An engine on `home` with the quick watcher. */
export function watchEngine(
  sb: Sandbox,
  home = tempDir(),
  timing: Partial<typeof TEST_TIMING> = {},
): DubdeskHost {
  return openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    maxServiceAttempts: 50,
    checkOutputs: true,
    watch: { ...TEST_TIMING, ...timing },
  });
}

/** Works the queue and watches the folders until `stop()` (which waits for the run to end). */
export function running(host: DubdeskHost): { stop(): Promise<string>; done: Promise<string> } {
  const controller = new AbortController();
  const done = host.run({ untilDone: false, concurrency: 2, pollIntervalMs: 50, signal: controller.signal });
  return {
    done,
    stop: async () => {
      controller.abort();
      return done;
    },
  };
}

/** Waits until `test` holds, looking every 50 ms; fails after `ms` saying what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  test: (v: T) => boolean,
  ms = 30_000,
): Promise<T> {
  let last: T | undefined;
  const notYet = new Error('not yet');
  try {
    return await vi.waitFor(
      async () => {
        last = await probe();
        if (!test(last)) throw notYet;
        return last;
      },
      { timeout: ms, interval: 50 },
    );
  } catch (e) {
    if (e !== notYet) throw e;
    const seen = Array.isArray(last)
      ? `${last.length} item(s): ${JSON.stringify(last)}`
      : JSON.stringify(last);
    throw new Error(`timed out waiting for ${what}; last seen: ${seen.slice(0, 1500)}`, { cause: e });
  }
}

export async function folderOf(api: DubdeskApi, id: number): Promise<WatchFolder> {
  const f = (await api.listWatchFolders()).folders.find((x) => x.id === id);
  if (!f) throw new Error(`no folder ${id}`);
  return f;
}

export async function filesOf(api: DubdeskApi, id: number): Promise<WatchFile[]> {
  const out: WatchFile[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await api.listWatchFiles({ id, offset, limit: 500 });
    out.push(...page.files);
    if (out.length >= page.total || page.files.length === 0) return out;
  }
}

/** Jobs a folder queued. */
export async function jobsOf(api: DubdeskApi, folderId: number): Promise<JobView[]> {
  return (await allJobs(api)).filter((j) => j.watchFolderId === folderId);
}

export async function addFolder(
  api: DubdeskApi,
  path: string,
  preset: Partial<WatchPresetInput> = {},
): Promise<WatchFolder> {
  return api.addWatchFolder({
    path,
    preset: { to: ['es', 'fr'], outDir: tempDir('dubdesk-out-'), ...preset },
  });
}

/** Writes `src` to `dest` in `chunks` pieces, `gapMs` apart: a slow copy or a render still running. */
export async function writeSlowly(src: string, dest: string, chunks: number, gapMs: number): Promise<number> {
  const bytes = await readFile(src);
  const fh = await open(dest, 'w');
  try {
    const size = Math.ceil(bytes.length / chunks);
    for (let i = 0; i < chunks; i++) {
      await fh.write(bytes.subarray(i * size, (i + 1) * size));
      await fh.sync();
      if (i < chunks - 1) await new Promise((r) => setTimeout(r, gapMs));
    }
  } finally {
    await fh.close();
  }
  return Date.now();
}

/** No duplicate (source, language) pairs among the jobs. */
export function duplicatesOf(jobs: readonly JobView[]): string[] {
  const seen = new Map<string, number>();
  for (const j of jobs)
    seen.set(`${j.source} → ${j.destLang}`, (seen.get(`${j.source} → ${j.destLang}`) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

/**
 * A sandbox and a watching engine that works its queue, each stopped through `cleanup` (run last first by
 * the test file's afterEach).
 */
export async function watchingSandbox(
  cleanup: (() => Promise<unknown>)[],
): Promise<{ sb: Sandbox; api: DubdeskApi }> {
  const sb = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  const host = watchEngine(sb);
  cleanup.push(() => host.close());
  const run = running(host);
  cleanup.push(() => run.stop());
  return { sb, api: host.api };
}

/** A `waitFor` condition: exactly `n` jobs, every one completed. */
export const allCompleted =
  (n: number) =>
  (jobs: readonly { state: string }[]): boolean =>
    jobs.length === n && jobs.every((j) => j.state === 'completed');

export { copyFile };

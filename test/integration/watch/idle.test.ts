import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loopTurns } from '../../../electron/engine/runner/idle';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { countFileCalls } from '../../helpers/fs-calls';
import { audioMp3 } from '../../helpers/media';
import { addFolder, folderOf, jobsOf, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * Counts the runs of statements whose SQL contains `text`, in every connection of this process (the
 * engine's too): prepare is wrapped on better-sqlite3's prototype until the returned undo.
 */
function countStatements(text: string): { count: () => number; undo: () => void } {
  const proto = Database.prototype as unknown as { prepare: (sql: string) => Database.Statement };
  const prepare = proto.prepare;
  let n = 0;
  proto.prepare = function (this: Database.Database, sql: string) {
    const st = prepare.call(this, sql);
    if (!sql.includes(text)) return st;
    for (const m of ['get', 'all', 'run'] as const) {
      const f = st[m].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => (n++, f(...a));
    }
    return st;
  };
  return { count: () => n, undo: () => (proto.prepare = prepare) };
}

/** Commits by other connections than `reader` since it last asked (SQLite's data_version moves on each). */
const commitsSeen = (reader: Database.Database) => Number(reader.pragma('data_version', { simple: true }));

describe('an idle engine is idle', () => {
  it('with its folder dubbed and nothing due, it sleeps and writes nothing to its database', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    // No full rescan inside the test: what is measured is the idle loops, not the safety-net scan.
    // A folder's jobs counted: its answer changes only with a write.
    const jobCounts = countStatements('FROM jobs WHERE watch_folder_id');
    cleanup.push(async () => jobCounts.undo());
    const host = watchEngine(sb, home, { pollMs: 600_000, eventRescanMs: 600_000 });
    cleanup.push(() => host.close());
    const dir = tempDir('dubdesk-watch-');
    await copyFile(audioMp3(1, 'idle-a.mp3'), join(dir, 'a.mp3'));
    await copyFile(audioMp3(1.5, 'idle-b.mp3'), join(dir, 'b.mp3'));
    const folder = await addFolder(host.api, dir);
    const controller = new AbortController();
    const run = host.run({
      untilDone: false,
      concurrency: 2,
      pollIntervalMs: 50,
      idleLookMs: 300,
      signal: controller.signal,
    });
    cleanup.push(() => (controller.abort(), run));
    await waitFor(
      'the folder to be dubbed',
      () => jobsOf(host.api, folder.id),
      (jobs) => jobs.length === 4 && jobs.every((j) => j.state === 'completed'),
    );
    await waitFor(
      'the folder to be watched',
      () => folderOf(host.api, folder.id),
      (f) => f.status === 'watching',
    );

    const reader = new Database(join(home, 'dubdesk.db'), { readonly: true });
    cleanup.push(async () => reader.close());
    // The last writes of the batch (outcomes, the folder's counts) settle first: three quiet runner turns.
    let quietSince = { version: commitsSeen(reader), turn: loopTurns.runner };
    await waitFor(
      'three runner turns without a commit',
      () => {
        const version = commitsSeen(reader);
        if (version !== quietSince.version) quietSince = { version, turn: loopTurns.runner };
        return loopTurns.runner - quietSince.turn;
      },
      (turns) => turns >= 3,
    );
    const before = {
      version: commitsSeen(reader),
      runner: loopTurns.runner,
      watcher: loopTurns.watcher,
      jobCounts: jobCounts.count(),
    };
    // Ten turns of each loop: long enough for every heartbeat a busy engine renews every few seconds.
    await waitFor(
      'ten idle turns of the runner and of the watcher',
      () => Math.min(loopTurns.runner - before.runner, loopTurns.watcher - before.watcher),
      (turns) => turns >= 10,
    );
    expect(before.jobCounts, 'the count is seen by this probe at all').toBeGreaterThan(0);
    expect(commitsSeen(reader), 'commits while idle').toBe(before.version);
    expect(jobCounts.count() - before.jobCounts, "the folder's jobs counted while nothing was written").toBe(
      0,
    );
    // And it stays watched: a process that stopped writing its heartbeat is still seen as alive.
    expect((await folderOf(host.api, folder.id)).status).toBe('watching');
  });

  it('with several folders, its presence checks share one wake-up, and one that finds nothing wakes nothing', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb, tempDir(), { pollMs: 600_000, eventRescanMs: 600_000 });
    cleanup.push(() => host.close());
    await host.api.pauseQueue();
    const dirs = [tempDir('dubdesk-watch-'), tempDir('dubdesk-watch-'), tempDir('dubdesk-watch-')];
    const folders = [];
    for (const d of dirs) folders.push(await addFolder(host.api, d));
    const controller = new AbortController();
    const run = host.run({ untilDone: false, concurrency: 2, pollIntervalMs: 50, signal: controller.signal });
    cleanup.push(() => (controller.abort(), run));
    for (const f of folders)
      await waitFor(
        'the folders to be watched',
        () => folderOf(host.api, f.id),
        (x) => x.status === 'watching' && x.lastScanAt !== null,
      );
    // Every presence check (a stat of its folder) with the loop's turn it ran in.
    const checks: { folder: number; turn: number }[] = [];
    const stats = countFileCalls((p) => {
      const folder = dirs.indexOf(p);
      if (folder >= 0) checks.push({ folder, turn: loopTurns.watcher });
      return false;
    });
    cleanup.push(async () => stats.undo());
    // Rounds of turns that have ended (a turn's checks start one after another, with awaits between).
    const ended = () => checks.filter((c) => c.turn < loopTurns.watcher);
    await waitFor(
      'eight rounds of presence checks',
      () => ended().filter((c) => c.folder === 0).length,
      (n) => n >= 8,
    );
    const byTurn = new Map<number, number[]>();
    for (const c of ended()) byTurn.set(c.turn, [...(byTurn.get(c.turn) ?? []), c.folder]);
    // The first two rounds may still be apart: folders whose first checks fell on turns of their own (one
    // slower to start, under load) join the others' round at their next check. Then one turn a round.
    const rounds = [...byTurn].slice(2);
    const seen = JSON.stringify(Object.fromEntries(byTurn));
    expect(rounds.length, seen).toBeGreaterThanOrEqual(5);
    for (const [turn, folders] of rounds)
      expect([...new Set(folders)].sort(), `the folders checked in turn ${turn} of ${seen}`).toEqual([
        0, 1, 2,
      ]);
    // No turn between two rounds: a check that found nothing woke nothing.
    const turns = rounds.map(([turn]) => turn);
    expect(turns, seen).toEqual(turns.map((_, i) => (turns[0] ?? 0) + i));
  });
});

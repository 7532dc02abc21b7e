/**
 * The long stretches of a big add, each cut into time slices with the event loop's turn between (see
 * `TimeSlices`): what the add does once per file or per job, and the WAL's checkpoint. Slices of zero
 * length are due at once, so the loop must turn at every step; no time is measured here (the `scale:`
 * bench measures the longest turn).
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sortAgainstQueue } from '../../electron/engine/app/batches/against-queue';
import { enqueueBatch } from '../../electron/engine/app/batches/enqueue';
import { expandInputs } from '../../electron/engine/app/batches/expand-inputs';
import { planSends } from '../../electron/engine/app/batches/send-plan';
import { TimeSlices } from '../../electron/engine/app/time-slices';
import { FRAMES_PER_CHECKPOINT } from '../../electron/engine/db/wal-checkpoints';
import type { ProbedFile } from '../../electron/engine/media/probe';
import type { MediaTools } from '../../electron/media-tools/locate';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

/** Counts the event loop's turns until stopped. */
function turnCounter() {
  let turns = 0;
  let running = true;
  const counting = (async () => {
    while (running) {
      await turn();
      turns++;
    }
  })();
  return {
    get turns() {
      return turns;
    },
    async stop() {
      running = false;
      await counting;
    },
  };
}

describe("a big add's steps give the event loop its turns", () => {
  it('decides what each file sends a slice at a time, streams that probing read included', async () => {
    const files: ProbedFile[] = Array.from({ length: 200 }, (_, i) => ({
      path: `/v/clip-${i}.mp4`,
      name: `clip-${i}.mp4`,
      bytes: 1_000_000,
      mime: 'video/mp4',
      kind: 'video',
      durationSeconds: 10,
      mtimeMs: 1,
      streams: {
        video: { codec: 'h264' },
        audio: { codec: 'aac', channels: 2, bitRate: 128_000, durationSeconds: 10, extraFrames: 0 },
        durationSeconds: 10,
      },
    }));
    // ffprobe is never run: probing read every file's streams.
    const tools: MediaTools = {
      ffmpeg: '/none/ffmpeg',
      ffprobe: '/none/ffprobe',
      from: 'PATH',
      version: 'test',
    };
    const counter = turnCounter();
    const plan = await planSends(
      files,
      { send: 'audio', api: 'v2' },
      Promise.resolve({ tools, problems: [] }),
      new TimeSlices(0),
    );
    await counter.stop();
    expect([...plan.bySource.values()].every((c) => c.what === 'audio')).toBe(true);
    expect(counter.turns).toBeGreaterThanOrEqual(files.length);
  });

  it("asks which of a folder's files are its own results a chunk of files at a time", async () => {
    const dir = tempDir();
    const names = Array.from({ length: 1_100 }, (_, i) => `clip-${String(i).padStart(4, '0')}.mp4`);
    for (const name of names) writeFileSync(join(dir, name), '');
    const counter = turnCounter();
    const asked: { files: number; turn: number }[] = [];
    await expandInputs(
      { inputs: [dir], to: ['es'], studio: false, api: 'v2' } as Parameters<typeof expandInputs>[0],
      null,
      (paths) => {
        asked.push({ files: paths.length, turn: counter.turns });
        return new Set();
      },
      {},
      new TimeSlices(0),
    );
    await counter.stop();
    expect(asked.map((a) => a.files)).toEqual([1_000, 100]);
    expect(asked[1]?.turn).toBeGreaterThan(asked[0]?.turn ?? Infinity);
  });

  it("checkpoints the WAL between the add's commits, never in one", async () => {
    const file = join(tempDir(), 'dubdesk.db');
    const store = storeAt(file);
    const automatic = store.db.pragma('wal_autocheckpoint', { simple: true });
    const jobs = Array.from({ length: 12_000 }, (_, i) =>
      newJob(`/v/clip ${i}.mp4`, { source_hash: String(i).padStart(64, '0') }),
    );
    const sorted = await sortAgainstQueue(store, jobs, false);
    const seen = new Set<unknown>();
    let done = false;
    const adding = enqueueBatch(store, sorted, false, new TimeSlices(0)).finally(() => (done = true));
    while (!done) {
      seen.add(store.db.pragma('wal_autocheckpoint', { simple: true }));
      await turn();
    }
    expect((await adding).added).toHaveLength(jobs.length);
    expect([...seen]).toEqual([0]);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(automatic);
    // The add checkpointed as it went: the WAL never held much more than a checkpoint's worth of frames.
    const frame = 24 + (store.db.pragma('page_size', { simple: true }) as number);
    const walFrames = Math.floor(statSync(`${file}-wal`).size / frame);
    const written = store.db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(walFrames, `the WAL's frames (${JSON.stringify(written)})`).toBeLessThan(
      1.5 * FRAMES_PER_CHECKPOINT,
    );
    store.db.close();
  });

  it("merges the search index between the add's statements, never in one, and finds every source", async () => {
    const store = storeAt(join(tempDir(), 'dubdesk.db'));
    const automerge = store.db.prepare(`SELECT v FROM source_search_config WHERE k = 'automerge'`).pluck();
    const jobs = Array.from({ length: 4_000 }, (_, i) =>
      newJob(`/v/take ${i} of the interview.mp4`, { source_hash: String(i).padStart(64, '0') }),
    );
    const sorted = await sortAgainstQueue(store, jobs, false);
    const seen = new Set<unknown>();
    let done = false;
    const adding = enqueueBatch(store, sorted, false, new TimeSlices(0)).finally(() => (done = true));
    while (!done) {
      seen.add(automerge.get());
      await turn();
    }
    expect((await adding).added).toHaveLength(jobs.length);
    expect([...seen]).toEqual([0]);
    // FTS5's own setting again once the add is done (it merges as it writes).
    expect(automerge.get()).toBe(4);
    store.db.prepare(`INSERT INTO source_search (source_search) VALUES ('integrity-check')`).run();
    // The trigram index answers LIKE, each source once.
    const found = store.db.prepare(`SELECT count(*) FROM source_search WHERE source LIKE ?`).pluck();
    expect(found.get('%of the interview%')).toBe(jobs.length);
    expect(found.get('%take 3999 %')).toBe(1);
    store.db.close();
  });
});

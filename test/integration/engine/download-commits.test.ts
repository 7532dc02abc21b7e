/**
 * The download step's commits, counted: every commit is a write to the queue database, an fsync-free but
 * locked step of each job, and the engine's overhead per job is mostly such steps. A job's two outputs
 * take four: their names claimed together, each output's length before it is moved into place, and the
 * job's completion. What each moved output leaves to record (done, its file id, its content) goes with the
 * next of them, never in a commit of its own.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transactions } from '../../../electron/engine/db/transactions';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

const tx = Transactions.prototype.tx;
const stackLimit = Error.stackTraceLimit;
afterEach(() => {
  Transactions.prototype.tx = tx;
  Error.stackTraceLimit = stackLimit;
});

/** Counts the outermost transactions (the commits) whose caller's stack passes through `frame`. */
function countCommitsUnder(frame: string): { count: number } {
  const counted = { count: 0 };
  Error.stackTraceLimit = 60;
  Transactions.prototype.tx = function (this: Transactions, ...args: Parameters<typeof tx>) {
    const db = (this as unknown as { db: { inTransaction: boolean } }).db;
    if (!db.inTransaction && (new Error().stack ?? '').includes(frame)) counted.count++;
    return tx.apply(this, args) as never;
  } as typeof tx;
  return counted;
}

describe("a job's download step", () => {
  it('records its two outputs, as done and as results, in four commits', async () => {
    const work = tempDir('dubdesk-download-commits-');
    const source = join(work, 'talk.mp3');
    copyFileSync(audioMp3(1, 'download-commits.mp3'), source);
    const host = engineFor(sb, join(work, 'home'));
    try {
      const added = await host.api.add({ inputs: [source], to: ['es'] });
      expect(added.added).toHaveLength(1);
      const commits = countCommitsUnder('fetchOutputs');
      expect(await host.run(quickRun(1))).toBe('done');
      const job = await host.api.getJob({ id: added.added[0] ?? 0 });
      expect(job.state).toBe('completed');
      expect(job.outputs.map((o) => o.type).sort()).toEqual(['translated_mp3', 'translated_subtitle']);
      expect(commits.count).toBe(4);

      // Each is known as a result by its content: a copy of either is not a new source.
      const copies = join(tempDir('dubdesk-download-commits-'), 'copy.mp3');
      copyFileSync(join(work, 'talk.es.mp3'), copies);
      const estimate = await host.api.estimate({ inputs: [copies], to: ['fr'] });
      expect(estimate.files[0]?.problem?.message).toContain("is a copy of Dubdesk's result talk.es.mp3");
    } finally {
      await host.close();
    }
  });
});

/**
 * The submit step's transactions, counted: each is a lock taken and dropped on the queue database, and the
 * engine's overhead per job is mostly such steps. The two checks for a pause or a stop that come right
 * before a write (the job's move to uploading, the create's record before the request leaves) are read in
 * that write's own transaction: asked there, a stop writes nothing, and no read transaction of its own
 * stands before it.
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

const { tx, read } = Transactions.prototype;
const stackLimit = Error.stackTraceLimit;
afterEach(() => {
  Object.assign(Transactions.prototype, { tx, read });
  Error.stackTraceLimit = stackLimit;
});

/** Counts the outermost transactions, reads and writes, whose caller's stack passes through `frame`. */
function countUnder(frame: string): { reads: number; writes: number } {
  const counted = { reads: 0, writes: 0 };
  Error.stackTraceLimit = 60;
  const outer = (t: Transactions) => !(t as unknown as { db: { inTransaction: boolean } }).db.inTransaction;
  const under = () => (new Error().stack ?? '').includes(frame);
  Transactions.prototype.tx = function (this: Transactions, ...args: Parameters<typeof tx>) {
    if (outer(this) && under()) counted.writes++;
    return tx.apply(this, args) as never;
  } as typeof tx;
  Transactions.prototype.read = function (this: Transactions, ...args: Parameters<typeof read>) {
    if (outer(this) && under()) counted.reads++;
    return read.apply(this, args) as never;
  } as typeof read;
  return counted;
}

describe("a v2 job's submit step", () => {
  it('checks for a stop in the transactions of the writes that follow, not in reads of their own', async () => {
    const work = tempDir('dubdesk-submit-reads-');
    const source = join(work, 'talk.mp3');
    copyFileSync(audioMp3(1, 'submit-reads.mp3'), source);
    const host = engineFor(sb, join(work, 'home'));
    try {
      const added = await host.api.add({ inputs: [source], to: ['es'], send: 'file' });
      expect(added.added).toHaveLength(1);
      const counted = countUnder(' submit');
      expect(await host.run(quickRun(1))).toBe('done');
      expect((await host.api.getJob({ id: added.added[0] ?? 0 })).state).toBe('completed');
      // The job's move to uploading, the create's record, the answer's adoption (the claim is the runner's).
      expect(counted).toEqual({ reads: 0, writes: 3 });
    } finally {
      await host.close();
    }
  });
});

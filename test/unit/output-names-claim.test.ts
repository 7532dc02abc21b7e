import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transactionsOf } from '../../electron/engine/db/transactions';
import { OutputNames } from '../../electron/engine/flows/output-names';
import { OutputRecords } from '../../electron/engine/flows/output-records';
import { enqueue } from '../../electron/engine/jobs/life';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

describe("a job's own output names", () => {
  it('are claimed together, in one commit: a crash leaves all of them recorded or none', async () => {
    const out = tempDir();
    const store = storeAt(join(tempDir(), 'dubdesk.db'));
    const id = enqueue(store, newJob('/v/talk.mp4', { out_dir: out }), null);
    const row = store.reads.get(id);
    if (!row) throw new Error('no job');
    const t = transactionsOf(store.db);
    const tx = t.tx.bind(t);
    let commits = 0;
    t.tx = ((...a: Parameters<typeof tx>) => (commits++, tx(...a))) as typeof t.tx;
    const records = new OutputRecords(store, new Map());
    const wanted = ['translated_mp4', 'translated_subtitle'] as const;
    const names = new OutputNames(store, row, 'talk', wanted, new Map(), records);
    expect(await names.claimOwnNames()).toBe(1);
    expect(commits).toBe(1);
    expect(store.outputs.of(id).map((o) => [o.type, o.path, o.done])).toEqual([
      ['translated_mp4', join(out, 'talk.es.mp4'), 0],
      ['translated_subtitle', join(out, 'talk.es.vtt'), 0],
    ]);
  });
});

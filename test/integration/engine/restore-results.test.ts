/**
 * The results a restored database forgot: written beside their sources after the backup it was restored
 * from. The folder added again must not take them for sources (a dub of a dub, paid for), and the dubs
 * fetched again must land on them, not beside them as `(2)`.
 */
import { copyFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Send } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { dubbedThenRestored, historyPage, junk, madeOf, type Damage } from '../../helpers/restored-home';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function sandbox(): Promise<Sandbox> {
  // ffmpeg on: the sound-alone path rebuilds each dubbed video here.
  const sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
  cleanup.push(() => sb.stop());
  return sb;
}

/** Two lessons in a folder of their own, with accented names. */
function lessons(): { dir: string; files: string[] } {
  const dir = tempDir();
  const files = [1, 2].map((n) => {
    const path = join(dir, `Leçon ${n}.mp4`);
    copyFileSync(videoMp4(2, `restore-lesson-${n}.mp4`), path);
    return path;
  });
  return { dir, files };
}

describe.each<[Send, string, Damage]>([
  ['audio', 'overwritten', junk],
  ['file', 'overwritten', junk],
  ['audio', 'readable but damaged', historyPage],
])('sending the %s, a database %s and restored, its results beside the sources', (send, _how, damage) => {
  it('the folder added again takes no result for a source: nothing new is dubbed or paid, and no (2)', async () => {
    const sb = await sandbox();
    const { dir, files } = lessons();
    const names = files.map((f) => f.split('/').pop() ?? '');
    const { home } = await dubbedThenRestored(sb, files, damage, { more: { send } });
    // The memory of results names the user's files: theirs alone, as the database is.
    expect(statSync(join(home, 'results.jsonl')).mode & 0o777).toBe(0o600);
    const before = readdirSync(dir).sort();
    expect(before.filter((f) => f.includes('.es.'))).not.toEqual([]);
    const paid = sb.state.ledger.length;

    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    await host.api.add({ inputs: [dir], to: ['es'], api: 'v2', send });
    const queued = (await host.api.listJobs({ offset: 0, limit: 50 })).jobs;
    expect(queued.map((j) => j.sourceName).filter((n) => n.includes('.es.'))).toEqual([]);
    expect(await host.run(quickRun(2))).toBe('done');

    expect(sb.state.ledger.length).toBe(paid);
    expect(madeOf(sb, names).dubs).toHaveLength(2);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

describe('a database restored from a backup taken mid-batch, its newer rows put back from the damaged file', () => {
  it('counts each job once: the totals, the views and the committed credits are the queue as it is', async () => {
    const sb = await sandbox();
    const { files } = lessons();
    const { home, restored } = await dubbedThenRestored(sb, files, historyPage, {
      outDir: tempDir(),
      backup: 'queued',
    });
    expect(restored.salvaged.jobs).toBe(2);
    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    const jobs = (await host.api.listJobs({ offset: 0, limit: 50 })).jobs;
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    const totals = await host.api.totals();
    expect({ total: totals.total, left: totals.left, committed: totals.creditsCommitted }).toEqual({
      total: 2,
      left: 0,
      committed: 0,
    });
    expect(totals.counts).toMatchObject({ completed: 2, queued: 0 });
    expect((await host.api.listSources({ offset: 0, limit: 50 })).total).toBe(2);
  });
});

/**
 * `restore-db` meets the audio track: a backup taken while a file's first track waited to be dubbed, then
 * another track of that file dubbed into the same language before the disk failed. The service's dub of the
 * other track is not the first track's (its sound is another), and it is not paid for again when that
 * track is added once more.
 */
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreDatabase } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoWithTracks } from '../../helpers/track-media';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function sandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
  cleanup.push(() => sb.stop());
  return sb;
}

/** The film: track 1 the main mix, track 3 a commentary of the same length (same duration hint). */
function film(): string {
  const path = join(tempDir(), 'Film.mp4');
  copyFileSync(videoWithTracks('restore-tracks.mp4'), path);
  return path;
}

/** Drops the backups taken since `before`, and overwrites the database: only the older backup is left. */
function loseDisk(home: string, before: ReadonlySet<string>): void {
  for (const b of readdirSync(join(home, 'backups'))) if (!before.has(b)) rmSync(join(home, 'backups', b));
  const db = join(home, 'dubdesk.db');
  for (const ext of ['-wal', '-shm']) rmSync(`${db}${ext}`, { force: true });
  writeFileSync(db, Buffer.alloc(8192, 0x5a));
}

describe('restore-db and the audio track', () => {
  it("the first track's job waiting in the backup does not take the commentary's dub; the commentary added again takes it, paid once", async () => {
    const sb = await sandbox();
    const source = film();
    const home = tempDir();
    const outDir = tempDir();
    const batch = { inputs: [source], to: ['es'], send: 'audio' as const, outDir };

    const first = engineFor(sb, home);
    const [mainMix] = (await first.api.add(batch)).added;
    await first.close(); // the backup: the main mix queued, not sent
    const before = new Set(readdirSync(join(home, 'backups')));

    const second = engineFor(sb, home);
    await second.api.cancelJobs({ ids: [mainMix ?? 0] });
    await second.api.add({ ...batch, audioTrack: '3' });
    expect(await second.run(quickRun(2))).toBe('done');
    const commentary = (await allJobs(second.api)).find((j) => j.audioTrack === '3');
    const commentaryDub = commentary?.remoteId;
    expect(commentary?.state).toBe('completed');
    await second.close();
    loseDisk(home, before);
    await restoreDatabase(home);

    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    expect(await host.run(quickRun(2))).toBe('done');
    const main = (await allJobs(host.api)).find((j) => j.audioTrack === undefined);
    expect(main?.state).toBe('completed');
    expect(main?.remoteId).not.toBe(commentaryDub);

    await host.api.add({ ...batch, audioTrack: '3' });
    expect(await host.run(quickRun(2))).toBe('done');
    const again = (await allJobs(host.api)).find((j) => j.audioTrack === '3');
    expect(again?.state).toBe('completed');
    expect(again?.remoteId).toBe(commentaryDub);
    expect(sb.state.ledger.filter((c) => c.dubId === commentaryDub)).toHaveLength(1);
    expect([...sb.state.dubs.values()].filter((d) => d.queuedAt !== null)).toHaveLength(2);
  });
});

/**
 * A watched folder's credit limit per hour against files that lie about their length: the estimate must
 * not believe the MP4 movie header alone (its tracks tell the truth), and what the service charged counts
 * toward the hour whatever was estimated. The service (the sandbox, with ffmpeg) charges the real length.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchFile } from '../../../shared/contract/watch';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { lengthlessWebm, lyingMp4 } from '../../helpers/media';
import { addFolder, filesOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Held for approval, or queued (it has jobs): no longer settling or waiting to be taken. */
const judged = (f: WatchFile) => f.status === 'awaiting-approval' || f.jobIds.length > 0;

async function setup() {
  const sb: Sandbox = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  const host = watchEngine(sb);
  cleanup.push(() => host.close());
  const run = running(host);
  cleanup.push(() => run.stop());
  return { sb, api: host.api };
}

describe('the hourly credit limit of a watched folder', () => {
  it('three 20 s files whose movie header says 1 s: each is estimated at 20 and waits for approval', async () => {
    const { sb, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { to: ['es'], creditLimit: 10 });
    for (const n of [1, 2, 3])
      await copyFile(lyingMp4(20, `movie-header-${n}.mp4`, ['mvhd']), join(dir, `clip-${n}.mp4`));
    const files = await waitFor(
      'the three files to be judged',
      () => filesOf(api, folder.id),
      (f) => f.length === 3 && f.every(judged),
    );
    for (const f of files) {
      expect(f.status).toBe('awaiting-approval');
      expect(f.credits).toBeGreaterThanOrEqual(20); // the longest track, not the header's 1 s
    }
    expect(await jobsOf(api, folder.id)).toEqual([]);
    expect(sb.state.ledger).toEqual([]);
  });

  it('what the service charged counts: a file lying in every header is taken once, the next one waits', async () => {
    const { sb, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { to: ['es'], creditLimit: 10 });
    const everyHeader = ['mvhd', 'tkhd', 'mdhd'] as const;
    await copyFile(lyingMp4(20, 'every-header-1.mp4', everyHeader), join(dir, 'first.mp4'));
    // Believed at 1 credit (nothing in its headers says more), queued, and charged its real 20 seconds.
    await waitFor(
      'the first file charged',
      () => jobsOf(api, folder.id),
      (j) => j.length === 1 && (j[0]?.creditsCharged ?? 0) >= 20,
    );
    const charged = sb.state.ledger.map((c) => c.seconds);
    expect(charged).toEqual([expect.any(Number)]);
    expect(charged[0]).toBeGreaterThanOrEqual(20);

    await copyFile(lyingMp4(20, 'every-header-2.mp4', everyHeader), join(dir, 'second.mp4'));
    const held = await waitFor(
      'the second file judged',
      () => filesOf(api, folder.id),
      (f) => f.length === 2 && f.every(judged),
    );
    const second = held.find((f) => f.name === 'second.mp4');
    expect(second?.status).toBe('awaiting-approval');
    expect(second?.problem?.message).toContain(`with the ${charged[0]} this folder spent in the last hour`);
    expect(sb.state.ledger).toHaveLength(1);
  });

  it('a file that does not say its length waits for approval, never taken as free; approved, it is charged once', async () => {
    const { sb, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { to: ['es'], creditLimit: 10 });
    await copyFile(lengthlessWebm(12, 'lengthless-1.webm'), join(dir, 'recording.webm'));
    const [file] = await waitFor(
      'the file judged',
      () => filesOf(api, folder.id),
      (f) => f.length === 1 && f.every(judged),
    );
    expect(file?.status).toBe('awaiting-approval');
    expect(file?.credits).toBeNull();
    expect(file?.problem?.message).toMatch(/recording\.webm does not say how long it is/);
    expect(await jobsOf(api, folder.id)).toEqual([]);
    expect(sb.state.ledger).toEqual([]);

    // Approved: dubbed and charged what the service measured, once.
    expect(await api.approveWatchFolder({ id: folder.id })).toMatchObject({ queued: 1, unknownLength: 1 });
    const [job] = await waitFor(
      'the approved file charged',
      () => jobsOf(api, folder.id),
      (j) => j.length === 1 && (j[0]?.creditsCharged ?? 0) > 0,
    );
    const charged = job?.creditsCharged ?? 0;
    expect(charged).toBeGreaterThanOrEqual(12);
    // One dub, one charge: 0 extra.
    expect(sb.state.ledger.map((c) => c.seconds)).toEqual([charged]);
  });
});

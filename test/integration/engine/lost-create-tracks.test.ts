/**
 * Two tracks of one file into one language, created at once, both answers lost: their dubs share the
 * file's language and length, so only their names can tell the lookups which dub is whose.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoWithTracks } from '../../helpers/track-media';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('lost create answers of two tracks of one file', () => {
  it('each job takes the dub of its own track, none is made twice', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000, faults: { holdCreates: true } });
    cleanup.push(() => sb.stop());
    const source = join(tempDir(), 'Film.mp4');
    copyFileSync(videoWithTracks('lost-create-tracks.mp4'), source);
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const batch = { inputs: [source], to: ['es'], send: 'audio' as const, uploadOnce: false };
    await host.api.add(batch);
    await host.api.add({ ...batch, audioTrack: '3' });
    const running = host.run(quickRun(2));
    await vi.waitFor(() => expect(sb.faults.held.creates.now).toBe(2), { timeout: 30_000 });
    sb.setFaults({ rateLostResponse: 1 });
    sb.setFaults({ holdCreates: false });
    await vi.waitFor(() => expect(sb.faults.fired.rateLostResponse).toBe(2), { timeout: 30_000 });
    sb.setFaults({ rateLostResponse: 0 });
    expect(await running).toBe('done');

    const jobs = await allJobs(host.api);
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    const dubs = startedDubs(sb);
    expect(dubs).toHaveLength(2);
    for (const j of jobs) {
      const dub = dubs.find((d) => d.id === j.remoteId);
      expect(dub?.name).toBe(j.audioTrack === '3' ? 'Film.track3.mp4' : 'Film.mp4');
    }
  });
});

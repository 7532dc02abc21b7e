/**
 * A job dubs the track chosen when its file was added, kept as the track's number. A re-export of the file
 * before it is sent may put its tracks in another order: the number then names another sound (the
 * commentary for the French), which would be dubbed and paid for, and the French added again paid again.
 * A file changed since its add whose chosen track is not the first is not sent: the job says why.
 */
import { copyFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoWithTracks, type ToneTrack } from '../../helpers/track-media';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a re-export that reorders the tracks between add and send', () => {
  it('sends nothing and says the file changed under its chosen track', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
    cleanup.push(() => sb.stop());
    // All three the same length: only their order tells the re-export from the file added.
    const main: ToneTrack = { language: 'eng', title: 'Main mix', hz: 440, seconds: 6, channels: 2 };
    const french: ToneTrack = {
      language: 'fre',
      title: 'Version française',
      hz: 660,
      seconds: 6,
      channels: 2,
    };
    const commentary: ToneTrack = { language: 'eng', title: 'Commentary', hz: 220, seconds: 6, channels: 1 };
    const reordered = videoWithTracks('reexport-after.mp4', [main, commentary, french]);
    const source = join(tempDir(), 'Film.mp4');
    copyFileSync(videoWithTracks('reexport-before.mp4', [main, french, commentary]), source);
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    await host.api.add({ inputs: [source], to: ['es'], send: 'audio', audioTrack: 'fr' });
    copyFileSync(reordered, source);
    utimesSync(source, new Date(), new Date(Date.now() + 5000));

    expect(await host.run(quickRun(1))).toBe('done');
    const [job] = await allJobs(host.api);
    expect(job?.state).toBe('failed');
    expect(job?.error?.message).toMatch(/Film\.mp4 changed since it was added.*track 2/);
    expect(startedDubs(sb)).toHaveLength(0);
    expect(sb.state.ledger).toHaveLength(0);
  });
});

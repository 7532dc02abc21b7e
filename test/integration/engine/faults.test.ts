import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceOutput, type ApiGeneration } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const FAULTS = {
  rate502: 0.15,
  rateReset: 0.1,
  rateLostResponse: 0.25,
  rateTruncate: 0.3,
  rateExpireLink: 0.3,
};

describe.each([
  ['v2', 11],
  ['v1', 12],
  ['legacy', 13],
] as const)('under injected faults (%s, seed %i)', (api_: ApiGeneration, seed: number) => {
  it('completes every job with exactly one dub each, charged once, outputs intact', async () => {
    const s = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, seed, faults: FAULTS });
    sb = s;
    const { api, run, close } = engineFor(s);
    const files =
      api_ === 'legacy'
        ? [videoMp4(2, `f-${api_}-a.mp4`), videoMp4(3, `f-${api_}-b.mp4`)]
        : [videoMp4(2, `f-${api_}-a.mp4`), audioMp3(2, `f-${api_}-b.mp3`), videoMp4(3, `f-${api_}-c.mp4`)];
    await api.add({ inputs: files, to: ['es', 'fr'], api: api_, outDir: tempDir() });
    const outcome = await run({ untilDone: true, concurrency: 3, pollIntervalMs: 50 });
    const jobs = await allJobs(api);
    await close();

    expect(outcome).toBe('done');
    expect(jobs.map((j) => `${j.sourceName}:${j.destLang}:${j.state}:${j.error?.message ?? ''}`)).toEqual(
      jobs.map((j) => `${j.sourceName}:${j.destLang}:completed:`),
    );
    // The faults really happened.
    expect(
      s.faults.fired.rateLostResponse + s.faults.fired.rate502 + s.faults.fired.rateReset,
    ).toBeGreaterThan(0);
    expect(s.faults.fired.rateTruncate + s.faults.fired.rateExpireLink).toBeGreaterThan(0);

    const started = startedDubs(s);
    expect(started).toHaveLength(jobs.length);
    expect(new Set(jobs.map((j) => j.remoteId))).toEqual(new Set(started.map((d) => d.id)));
    const charges = s.state.ledger.map((c) => c.dubId);
    expect(charges.sort()).toEqual(started.map((d) => d.id).sort());

    for (const job of jobs) {
      const dub = s.state.dubs.get(job.remoteId ?? '');
      for (const o of job.outputs.filter(isServiceOutput)) {
        const served = await readFile(dub?.artifacts?.[o.type]?.path ?? '');
        expect((await readFile(o.path)).equals(served), o.path).toBe(true);
      }
      expect(job.outputs).toHaveLength(2);
    }
  });
});

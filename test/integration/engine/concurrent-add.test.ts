import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({});
});
afterAll(() => sb.stop());

describe('two adds of the same batch at once (two faces, or a face and a watched folder)', () => {
  it('queue each source and language once; the later add reports them as already queued', async () => {
    const dir = join(tempDir('dubdesk-twice-'), 'clips');
    mkdirSync(dir);
    const clip = videoMp4(1, 'twice.mp4');
    // Over one insert transaction's worth of jobs, so the two adds' inserts interleave.
    for (let i = 0; i < 300; i++) copyFileSync(clip, join(dir, `clip-${String(i).padStart(3, '0')}.mp4`));
    const host = engineFor(sb);
    try {
      const request = { inputs: [dir], to: ['es', 'fr'], force: true };
      const [a, b] = await Promise.all([host.api.add(request), host.api.add(request)]);
      expect(a.added.length + b.added.length).toBe(600);
      expect(new Set([...a.added, ...a.alreadyQueued])).toEqual(new Set([...b.added, ...b.alreadyQueued]));
      const jobs = await allJobs(host.api);
      expect(jobs).toHaveLength(600);
      expect(new Set(jobs.map((j) => `${j.source} ${j.destLang}`)).size).toBe(600);
    } finally {
      await host.close();
    }
  });
});

describe('two adds at once of the same content under two names (a double click, two faces)', () => {
  it('pay for one dub; the other file gets its results linked at no charge', async () => {
    const clip = videoMp4(1, 'same.mp4');
    const a = join(tempDir('dubdesk-same-a-'), 'talk.mp4');
    const b = join(tempDir('dubdesk-same-b-'), 'talk copy.mp4');
    copyFileSync(clip, a);
    copyFileSync(clip, b);
    const host = engineFor(sb);
    try {
      const [first, second] = await Promise.all([
        host.api.add({ inputs: [a], to: ['es'], force: true }),
        host.api.add({ inputs: [b], to: ['es'], force: true }),
      ]);
      expect(first.added.length + second.added.length).toBe(2);
      expect(await host.run(quickRun(2))).toBe('done');
      const jobs = await allJobs(host.api);
      expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
      expect(startedDubs(sb)).toHaveLength(1);
      expect(sb.state.ledger).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});

import { copyFileSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun, whenJob } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { running } from '../../helpers/watch';

const sandboxes: Sandbox[] = [];
async function sandbox(): Promise<Sandbox> {
  const s = await startSandbox({ pipelineSeconds: 0.3 });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

/** A copy of `file` under `name` in a folder of its own. */
function copyAs(file: string, name: string): string {
  const copy = join(tempDir(), name);
  copyFileSync(file, copy);
  return copy;
}

const sameFile = (a: string, b: string) =>
  statSync(a).ino === statSync(b).ino || readFileSync(a).equals(readFileSync(b));

describe('copies of a dubbed file: their own result names, at no charge', () => {
  it('a copy under a new name gets `talk copy.es.mp4` linked from `talk.es.mp4`, and says so', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const talk = videoMp4(2, 'talk.mp4');
      const out = tempDir();
      await api.add({ inputs: [talk], to: ['es'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      const copy = copyAs(talk, 'talk copy.mp4');
      const added = await api.add({ inputs: [copy], to: ['es'], outDir: out });
      expect(added.added).toHaveLength(1);
      expect(added.credits).toBe(0);
      expect(await run(quickRun(1))).toBe('done');
      const job = await api.getJob({ id: added.added[0] ?? 0 });
      expect(job).toMatchObject({ state: 'completed', creditsCharged: 0, copiedFrom: 'talk.es.mp4' });
      expect(job.outputs.map((o) => o.path)).toEqual([
        join(out, 'talk copy.es.mp4'),
        join(out, 'talk copy.es.vtt'),
      ]);
      expect(sameFile(join(out, 'talk copy.es.mp4'), join(out, 'talk.es.mp4'))).toBe(true);
      expect(statSync(join(out, 'talk copy.es.mp4')).ino).toBe(statSync(join(out, 'talk.es.mp4')).ino);
      expect(job.history.at(-1)?.reason).toMatch(/copied from talk\.es\.mp4 \(job #\d+\), no charge/);
      expect(startedDubs(sb)).toHaveLength(1);
      expect(sb.state.ledger).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('two identical files in one batch: one is dubbed and charged, the other gets its results linked', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const a = videoMp4(2, 'lecture.mp4');
      const b = copyAs(a, 'lecture backup.mp4');
      const out = tempDir();
      const added = await api.add({ inputs: [a, b], to: ['es', 'fr'], outDir: out });
      expect(added.added).toHaveLength(4);
      expect(added.credits).toBe(4); // 2 s x 2 languages, once
      expect(await run(quickRun(2))).toBe('done');
      const jobs = await allJobs(api);
      expect(jobs.map((j) => [j.sourceName, j.destLang, j.state, j.creditsCharged])).toEqual([
        ['lecture.mp4', 'es', 'completed', 2],
        ['lecture.mp4', 'fr', 'completed', 2],
        ['lecture backup.mp4', 'es', 'completed', 0],
        ['lecture backup.mp4', 'fr', 'completed', 0],
      ]);
      expect(jobs[2]?.copiedFrom).toBe('lecture.es.mp4');
      expect(sameFile(join(out, 'lecture backup.fr.mp4'), join(out, 'lecture.fr.mp4'))).toBe(true);
      expect(startedDubs(sb)).toHaveLength(2);
      expect(sb.state.ledger).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('when the earlier results were deleted, a copy is reported as dubbed before and --again is the way', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const talk = videoMp4(2, 'gone.mp4');
      const out = tempDir();
      const first = await api.add({ inputs: [talk], to: ['es'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      rmSync(join(out, 'gone.es.mp4'));
      const copy = copyAs(talk, 'gone copy.mp4');
      const added = await api.add({ inputs: [copy], to: ['es'], outDir: out });
      expect(added.added).toEqual([]);
      expect(added.alreadyDone).toMatchObject([{ jobId: first.added[0], source: copy, destLang: 'es' }]);
      const again = await api.add({ inputs: [copy], to: ['es'], outDir: out, again: true });
      expect(again.added).toHaveLength(1);
      expect(again.credits).toBe(2);
      expect(await run(quickRun(1))).toBe('done');
      expect(sb.state.ledger).toHaveLength(2);
    } finally {
      await close();
    }
  });
  it('--again on the same content takes the plain names; the older results move to previous/', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const clip = videoMp4(2, 'clip.mp4');
      const out = tempDir();
      const first = await api.add({ inputs: [clip], to: ['es'], outDir: out, outputs: 'all' });
      expect(await run(quickRun(1))).toBe('done');
      const plain = join(out, 'clip.es.mp4');
      const v1 = statSync(plain).ino;
      const again = await api.add({ inputs: [clip], to: ['es'], outDir: out, outputs: 'all', again: true });
      expect(again.added).toHaveLength(1);
      expect(await run(quickRun(1))).toBe('done');
      const second = await api.getJob({ id: again.added[0] ?? 0 });
      expect(second.outputs.map((o) => o.path)).toContain(plain);
      expect(statSync(plain).ino).not.toBe(v1);
      expect(statSync(join(out, 'previous', 'clip.es.mp4')).ino).toBe(v1);
      // The earlier job's records follow its files.
      const earlier = await api.getJob({ id: first.added[0] ?? 0 });
      expect(earlier.outputs.map((o) => o.path)).toContain(join(out, 'previous', 'clip.es.mp4'));
      for (const o of [...earlier.outputs, ...second.outputs]) expect(statSync(o.path).isFile()).toBe(true);
      // The new dub's results stand together, none of them borrowed from previous/.
      expect(second.outputs.filter((o) => o.path.includes(join(out, 'previous')))).toEqual([]);
      const names = [...readdirSync(out), ...readdirSync(join(out, 'previous'))];
      expect(names.filter((n) => /\(\d+\)/.test(n))).toEqual([]);
      expect(sb.state.ledger).toHaveLength(2);
    } finally {
      await close();
    }
  });
  it('a copy waiting for the dub of its content says which one, and is woken when it ends', async () => {
    const sb = await startSandbox({ pipelineSeconds: 1 });
    sandboxes.push(sb);
    const host = engineFor(sb);
    const { api } = host;
    try {
      const a = videoMp4(2, 'talk.mp4');
      const b = copyAs(a, 'talk backup.mp4');
      const added = await api.add({ inputs: [a, b], to: ['es'], outDir: tempDir() });
      const [dub = 0, copy = 0] = added.added;
      const waiting = whenJob(api, (j) => j.id === copy && j.waiting?.code === 'first-upload');
      const done = whenJob(api, (j) => j.id === copy && j.state === 'completed');
      const run = running(host);
      try {
        const seen = await waiting;
        expect(seen.waiting?.message).toMatch(
          new RegExp(`^waits for talk\\.mp4's Spanish dub, job #${dub}\\b`),
        );
        // Nothing is retried on a clock: the copy is woken when that job ends (its safety net is minutes away,
        // far beyond this test's wait, so completing here means it was woken).
        expect(seen.waiting?.retryAt).toBeNull();
        expect(await done).toMatchObject({ state: 'completed', creditsCharged: 0 });
      } finally {
        await run.stop();
      }
      expect(sb.state.ledger).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});

import { copyFileSync, existsSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
async function sandbox(): Promise<Sandbox> {
  const s = await startSandbox({ pipelineSeconds: 0.3 });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

/** A result's name without its extension: what players pair media and subtitles by. */
const baseOf = (path: string) => basename(path, extname(path));

/** Every file of a job has one base name (`half.es (2).mp3` beside `half.es (2).vtt`). */
function expectPaired(job: JobView): void {
  expect(job.outputs.length).toBeGreaterThanOrEqual(2);
  expect(new Set(job.outputs.map((o) => baseOf(o.path))).size, JSON.stringify(job.outputs)).toBe(1);
}

describe('the results of one job keep one name, so players pair them', () => {
  it('two sources with one stem in one folder, and a re-dub of the second', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const dir = tempDir();
      const out = tempDir();
      copyFileSync(videoMp4(2, 'half-video.mp4'), join(dir, 'half.mp4'));
      copyFileSync(audioMp3(2, 'half-audio.mp3'), join(dir, 'half.mp3'));
      const first = await api.add({ inputs: [join(dir, 'half.mp4')], to: ['es'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      const second = await api.add({ inputs: [join(dir, 'half.mp3')], to: ['es'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      const a = await api.getJob({ id: first.added[0] ?? 0 });
      const b = await api.getJob({ id: second.added[0] ?? 0 });
      expectPaired(a);
      expectPaired(b);
      expect(a.outputs.map((o) => basename(o.path))).toEqual(['half.es.mp4', 'half.es.vtt']);

      const again = await api.add({ inputs: [join(dir, 'half.mp3')], to: ['es'], outDir: out, again: true });
      expect(await run(quickRun(1))).toBe('done');
      const c = await api.getJob({ id: again.added[0] ?? 0 });
      expectPaired(c);
      expectPaired(await api.getJob({ id: b.id })); // moved to previous/ together
      for (const o of [...a.outputs, ...c.outputs]) expect(statSync(o.path).isFile()).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('two same-stem sources whose downloads run at once', () => {
  it('each keeps its own pair of names, and no file of one replaces the other', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const dir = tempDir();
      const out = tempDir();
      copyFileSync(videoMp4(2, 'talk-video.mp4'), join(dir, 'talk.mp4'));
      copyFileSync(audioMp3(2, 'talk-audio.mp3'), join(dir, 'talk.mp3'));
      // One add: both are dubbed side by side, so their downloads pick names at the same moment.
      const added = await api.add({ inputs: [dir], to: ['es'], outDir: out });
      // A poll a second: both dubs are seen completed by the same poll, and both downloads start together.
      expect(await run({ ...quickRun(2), concurrency: 2, pollIntervalMs: 1000 })).toBe('done');
      const jobs = await Promise.all(added.added.map((id) => api.getJob({ id })));
      for (const j of jobs) expectPaired(j);
      const paths = jobs.flatMap((j) => j.outputs.map((o) => o.path));
      expect(new Set(paths).size).toBe(paths.length);
      for (const p of paths) expect(statSync(p).isFile()).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('a new version of a source', () => {
  it('moves every older result of that path to previous/, whatever its language, and keeps each version', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const dir = tempDir();
      const out = tempDir();
      const clip = join(dir, 'clip8.mp4');
      copyFileSync(videoMp4(2, 'clip8-v1.mp4'), clip);
      const v1 = await api.add({ inputs: [clip], to: ['de', 'fr'], outDir: out });
      expect(await run(quickRun(2))).toBe('done');
      const v1de = statSync(join(out, 'clip8.de.mp4')).ino;

      // The new content, dubbed to one language only: the old French result is of the old content too.
      copyFileSync(videoMp4(3, 'clip8-v2.mp4'), clip);
      await api.add({ inputs: [clip], to: ['de'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      expect(existsSync(join(out, 'clip8.fr.mp4'))).toBe(false);
      expect(existsSync(join(out, 'clip8.fr.vtt'))).toBe(false);
      for (const name of ['clip8.de.mp4', 'clip8.de.vtt', 'clip8.fr.mp4', 'clip8.fr.vtt'])
        expect(existsSync(join(out, 'previous', name)), name).toBe(true);
      // The older jobs' records follow their files.
      for (const id of v1.added) {
        const j = await api.getJob({ id });
        for (const o of j.outputs) {
          expect(o.path.startsWith(join(out, 'previous'))).toBe(true);
          expect(statSync(o.path).isFile()).toBe(true);
        }
      }
      const v2de = statSync(join(out, 'clip8.de.mp4')).ino;

      // A third version: the first one's file in previous/ is never overwritten; the second is numbered.
      copyFileSync(videoMp4(4, 'clip8-v3.mp4'), clip);
      await api.add({ inputs: [clip], to: ['de'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      expect(statSync(join(out, 'previous', 'clip8.de.mp4')).ino).toBe(v1de);
      expect(statSync(join(out, 'previous', 'clip8.de (2).mp4')).ino).toBe(v2de);
      expect(existsSync(join(out, 'previous', 'clip8.de (2).vtt'))).toBe(true);
    } finally {
      await close();
    }
  });
});

import { copyFileSync, existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { copyFile, readFile, truncate } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox({ pipelineSeconds: 0.3, ...opts });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

const req = (inputs: string[], to = ['es']) => ({ inputs, to, outDir: tempDir() });

describe('engine lifecycle: sources and outputs', () => {
  it('fails at once when no requested output is offered; adding it again with other outputs fetches, not re-dubs', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    const audio = audioMp3(2, 'no-poster.mp3');
    const out = tempDir();
    await api.add({ ...req([audio]), outDir: out, outputs: ['poster'] });
    expect(await run(quickRun(1))).toBe('done');
    const [failed] = await allJobs(api);
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.message).toMatch(
      /offered none of the requested outputs \(it has: .*translated_mp3/,
    );
    expect(failed?.creditsCharged).toBe(sb.state.ledger[0]?.seconds); // the service charged when the dub completed
    const again = await api.add({ ...req([audio]), outDir: out, outputs: ['translated_mp3'] });
    expect(again.retried).toEqual([failed?.id]);
    expect(await run(quickRun(1))).toBe('done');
    const [done] = await allJobs(api);
    await close();
    expect(done?.state).toBe('completed');
    expect(done?.remoteId).toBe(failed?.remoteId);
    expect(done?.outputs.map((o) => o.type)).toEqual(['translated_mp3']);
    expect(startedDubs(sb)).toHaveLength(1);
  });

  it('dubs an http(s) URL source through v2 source_url', async () => {
    const media = await readFile(videoMp4(2, 'remote.mp4'));
    const origin = createServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(media);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    try {
      const sb = await sandbox({ allowPrivateSourceUrls: true });
      const { api, run, close } = engineFor(sb);
      const out = tempDir();
      const url = `http://127.0.0.1:${(origin.address() as { port: number }).port}/talks/keynote%20final.mp4`;
      const estimate = await api.estimate({ ...req([url], ['pt']), outDir: out });
      expect(estimate.files).toEqual([
        expect.objectContaining({ kind: 'url', name: 'keynote final.mp4', durationSeconds: null }),
      ]);
      expect(estimate).toMatchObject({ credits: 0, unknownLengthJobs: 1 });
      await api.add({ ...req([url], ['pt']), outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      expect((await allJobs(api))[0]?.outputs.map((o) => o.path)).toEqual([
        join(out, 'keynote final.pt.mp4'),
        join(out, 'keynote final.pt.vtt'),
      ]);
      await close();
    } finally {
      origin.close();
    }
  });

  it('a URL with a malformed escape is named, not a crash that loses the batch', async () => {
    const sb = await sandbox();
    const { api, close } = engineFor(sb);
    const e = await api.estimate(req(['https://h.example/a%E0.mp4', videoMp4(2, 'beside.mp4')]));
    await close();
    expect(e.files.map((f) => f.name)).toEqual(['a%E0.mp4', 'beside.mp4']);
    expect(e.jobs).toBe(2);
  });

  it('refuses files over 1 GB for v2 with a message that says so', async () => {
    const sb = await sandbox();
    const { api, close } = engineFor(sb);
    const big = join(tempDir(), 'huge.mp4');
    await copyFile(videoMp4(2), big);
    await truncate(big, 1024 ** 3 + 1); // sparse: costs no disk
    const e = await api.estimate(req([big]));
    expect(e.jobs).toBe(0);
    expect(e.files[0]?.problem).toEqual({
      code: 'too-large',
      message: `${big}: 1.0 GiB (1,073,741,825 bytes) is over the 1.0 GiB upload limit of the v2 API.`,
      remedy:
        'Send only its sound instead (--send audio, or "Only the sound" in the Send choice), or split or compress it first.',
    });
    expect((await api.estimate({ ...req([big]), api: 'v1' })).jobs).toBe(1);
    await close();
  });

  it('reports a source already dubbed with the same settings instead of paying again, unless asked again', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    const file = videoMp4(2, 'twice.mp4');
    const out = tempDir();
    const first = await api.add({ inputs: [file], to: ['es'], outDir: out });
    expect(await run(quickRun(1))).toBe('done');
    const second = await api.add({ inputs: [file], to: ['es', 'fr'], outDir: out });
    expect(second.added).toHaveLength(1); // fr only
    expect(second.alreadyDone).toEqual([
      {
        jobId: first.added[0],
        source: file,
        destLang: 'es',
        outputs: [join(out, 'twice.es.mp4'), join(out, 'twice.es.vtt')],
      },
    ]);
    expect(second.credits).toBe(2);
    const third = await api.add({ inputs: [file], to: ['es'], outDir: out, again: true });
    expect(third.added).toHaveLength(1);
    expect(await run(quickRun(1))).toBe('done');
    const jobs: JobView[] = await allJobs(api);
    await close();
    expect(jobs.map((j) => [j.destLang, j.state])).toEqual([
      ['es', 'completed'],
      ['fr', 'completed'],
      ['es', 'completed'],
    ]);
    expect(sb.state.ledger).toHaveLength(3);
  });

  it('knows a source by its content: a touched file or a byte-identical copy is not paid for again', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const file = videoMp4(2, 'clip.mp4');
      const out = tempDir();
      const first = await api.add({ inputs: [file], to: ['es'], outDir: out });
      expect(await run(quickRun(1))).toBe('done');
      // `touch clip.mp4`: a new modification time, the same bytes.
      const later = new Date(Date.now() + 60_000);
      utimesSync(file, later, later);
      const touched = await api.add({ inputs: [file], to: ['es'], outDir: out });
      expect(touched.added).toEqual([]);
      expect(touched.alreadyDone.map((d) => d.jobId)).toEqual([first.added[0]]);
      // A copy under another name.
      const copy = join(tempDir(), 'talk copy.mp4');
      copyFileSync(file, copy);
      const copied = await api.add({ inputs: [copy], to: ['es'], outDir: out });
      // Its own result names, linked from the dub already made (copies.test.ts), at no charge.
      expect(copied.added).toHaveLength(1);
      expect(copied.credits).toBe(0);
      expect(await run(quickRun(1))).toBe('done');
      expect(sb.state.ledger).toHaveLength(1);
      // Dubbing again on purpose is asked for, and paid.
      const again = await api.add({ inputs: [copy], to: ['es'], outDir: out, again: true });
      expect(again.added).toHaveLength(1);
      expect(await run(quickRun(1))).toBe('done');
      expect(sb.state.ledger).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('checks the output folder again before uploading: a file put in its place costs nothing', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    try {
      const out = join(tempDir(), 'results');
      const added = await api.add({ inputs: [videoMp4(2, 'blocked-out.mp4')], to: ['es'], outDir: out });
      rmSync(out, { recursive: true });
      writeFileSync(out, 'a file where the folder was');
      expect(await run(quickRun(1))).toBe('done');
      const job = await api.getJob({ id: added.added[0] ?? 0 });
      expect(job).toMatchObject({
        state: 'failed',
        error: { message: `cannot write to ${out}: a file is in the way of the output folder` },
      });
      expect(job.error?.remedy).toContain('Move that file away');
      expect(sb.state.dubs.size).toBe(0);
      expect(sb.state.ledger).toHaveLength(0);
    } finally {
      await close();
    }
  });

  it('checks the output folder before anything is sent', async () => {
    const sb = await sandbox();
    const { api, close } = engineFor(sb);
    const file = videoMp4(2, 'out-check.mp4');
    await expect(api.add({ inputs: [file], to: ['es'], outDir: file })).rejects.toMatchObject({
      code: 'disk',
      field: 'outDir',
      message: expect.stringContaining('is a file, not a folder'),
    });
    await expect(api.add({ inputs: [file], to: ['es'], outDir: join(file, 'below') })).rejects.toMatchObject({
      code: 'disk',
    });
    // Writable, yet no folder can be made in it: found when adding, not after the dub is paid for.
    if (existsSync('/proc/self'))
      await expect(
        api.add({ inputs: [file], to: ['es'], outDir: '/proc/dubdesk-out' }),
      ).rejects.toMatchObject({
        code: 'permission',
        field: 'outDir',
        message: expect.stringContaining('cannot create the folder /proc/dubdesk-out'),
      });
    await close();
    expect(sb.state.dubs.size).toBe(0);
  });
});

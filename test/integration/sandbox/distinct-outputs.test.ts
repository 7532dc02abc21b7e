/**
 * The real service's outputs differ from one another (the dub is not the original, the MP3 is not the MP4).
 * The sandbox's must too, or Dubdesk's "identical content is kept once" makes `--outputs all` look wrong:
 * every output type then gets its own documented name (docs/cli.md) and a job lists each file once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const LANGS = ['es', 'fr', 'de', 'it'];
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe.each([
  ['with ffmpeg (real media, a metadata tag names the language)', true],
  ['without ffmpeg (the upload with a marker of its own)', false],
] as const)('--outputs all to four languages, sandbox %s', (_mode, ffmpeg) => {
  it('gives every output type its own name and file, and lists each file once per job', async () => {
    const sb: Sandbox = await startSandbox({ ffmpeg, pipelineSeconds: 0.2 });
    cleanup.push(() => sb.stop());
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const out = tempDir('dubdesk-distinct-');
    const clip = videoMp4(3, 'clip30.mp4');
    const { added } = await host.api.add({ inputs: [clip], to: LANGS, outDir: out, outputs: 'all' });
    expect(added).toHaveLength(4);
    expect(await host.run(quickRun(2))).toBe('done');

    const perSource = new Set([
      'clip30.original.mp4',
      'clip30.original (converted).mp4',
      'clip30.original-audio.mp3',
      'clip30.original.vtt',
      ...(ffmpeg ? ['clip30.poster.jpg'] : []),
    ]);
    const seen = new Map<string, string>();
    for (const id of added) {
      const job = await host.api.getJob({ id });
      expect(job.state, JSON.stringify(job.error)).toBe('completed');
      const names = job.outputs.map((o) => basename(o.path));
      // Each file once in a job's list.
      expect(names).toEqual([...new Set(names)]);
      const byType = new Map(job.outputs.map((o) => [o.type, basename(o.path)]));
      const l = job.destLang;
      expect(byType.get('translated_mp4')).toBe(`clip30.${l}.mp4`);
      expect(byType.get('translated')).toBe(`clip30.${l} (service format).mp4`);
      expect(byType.get('translated_mp3')).toBe(`clip30.${l}.mp3`);
      expect(byType.get('translated_subtitle')).toBe(`clip30.${l}.vtt`);
      for (const o of job.outputs) {
        const name = basename(o.path);
        if (o.type === 'original' || o.type.startsWith('original_') || o.type === 'poster')
          expect(perSource.has(name), `${o.type}: ${name}`).toBe(true);
        seen.set(o.path, o.type);
      }
      expect(byType.has('original_mp4') ? byType.get('original_mp4') : null).not.toMatch(/\.es\.mp4$/);
    }
    // Every per-source file was written, once, for the whole source.
    const names = [...seen.keys()].map((p) => basename(p));
    for (const n of perSource)
      expect(
        names.filter((x) => x === n),
        n,
      ).toHaveLength(1);
    // Every file differs from every other (nothing was kept once for being a copy of another type).
    const digests = [...seen.keys()].map(digest);
    expect(new Set(digests).size).toBe(digests.length);
    // And each still is what its name says.
    for (const [path, type] of seen) {
      const kind = await fileTypeFromFile(path);
      if (type.endsWith('subtitle')) continue;
      if (type === 'poster') expect(kind?.mime).toBe('image/jpeg');
      else if (type.endsWith('mp3') && ffmpeg) expect(kind?.mime, type).toBe('audio/mpeg');
      else if (!type.endsWith('mp3')) expect(kind?.ext, type).toBe('mp4');
    }
  }, 120_000);
});

/**
 * A source whose name is near the file system's limit (255 bytes on Linux and macOS): its results add a
 * language, a type, a variant `(N)` and `.part`, so they could never be written (ENAMETOOLONG) once the dub
 * was paid for. Result names are shortened before anything is sent, the same way every time, by UTF-8
 * bytes, never inside a character or a grapheme.
 */
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, balance: 10_000 });
});
afterAll(() => sb.stop());

const bytes = (s: string) => Buffer.byteLength(s);

/** Adds `names` (made as 1 s videos) to `es`, into one folder, and works the queue; what came of it. */
async function dub(names: string[], outDir = tempDir()) {
  const host = engineFor(sb);
  // Each a video of its own, copied to its long name (the fixture cache's own names would be too long).
  const dir = tempDir();
  const files = names.map((n, i) => {
    const path = join(dir, n);
    copyFileSync(videoMp4(1, `long-name-${i}.mp4`), path);
    return path;
  });
  const { added } = await host.api.add({ inputs: files, to: ['es'], outDir });
  expect(await host.run(quickRun(2))).toBe('done');
  const jobs = await Promise.all(added.map((id) => host.api.getJob({ id })));
  await host.close();
  const charged = sb.state.ledger.filter((c) => jobs.some((j) => j.remoteId === c.dubId));
  return { jobs, charged, written: readdirSync(outDir) };
}

describe('a source name near 255 bytes', () => {
  it('ASCII: dubbed, paid once, its results written under a shortened name that pairs', async () => {
    const name = `${'a'.repeat(245)}.mp4`;
    const { jobs, charged, written } = await dub([name]);
    expect(jobs.map((j) => `${j.state} ${j.error?.message ?? ''}`)).toEqual(['completed ']);
    expect(charged).toHaveLength(1);
    const results = jobs[0]?.outputs.map((o) => basename(o.path)) ?? [];
    expect(results.length).toBeGreaterThanOrEqual(2);
    for (const r of results) expect(bytes(r)).toBeLessThanOrEqual(255);
    // Media and subtitles share one stem, so players pair them.
    const stems = new Set(results.map((r) => r.replace(/\.es\.[a-z0-9]+$/, '')));
    expect(stems.size).toBe(1);
    expect(written.sort()).toEqual(results.sort());
  });

  it('decomposed accents (NFD, as macOS names files): never cut between a letter and its accent', async () => {
    const name = `${'e\u0301'.repeat(83)}.mp4`;
    expect(bytes(name)).toBe(253);
    const { jobs, charged } = await dub([name]);
    expect(jobs.map((j) => j.state)).toEqual(['completed']);
    expect(charged).toHaveLength(1);
    for (const o of jobs[0]?.outputs ?? []) {
      const file = basename(o.path);
      expect(bytes(file)).toBeLessThanOrEqual(255);
      // Whole graphemes only: every accent follows its letter.
      expect(file).toMatch(/^(e\u0301)+[^\u0301]/);
    }
  });

  it('two long names that differ only at their end keep two names, the same ones every time', async () => {
    const long = 'b'.repeat(246);
    const first = await dub([`${long}-1.mp4`, `${long}-2.mp4`]);
    expect(first.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(first.written.some((f) => / \(\d+\)\./.test(f))).toBe(false);
    const firstStems = new Set(first.written.map((f) => f.split('.')[0]));
    expect(firstStems.size).toBe(2);
    // Dubbed again (as another folder of the same files would be): the same names.
    const again = await dub([`${long}-1.mp4`, `${long}-2.mp4`]);
    expect(again.written.sort()).toEqual(first.written.sort());
  });

  it('its results beside other files of the same names: numbered (2), still within the limit', async () => {
    const name = `${'c'.repeat(245)}.mp4`;
    const first = await dub([name]);
    // Files of the user's own under exactly those names, where the next dub of it writes.
    const outDir = tempDir();
    for (const f of first.written) writeFileSync(join(outDir, f), `not a result: ${f}`);
    const second = await dub([name], outDir);
    expect(second.jobs.map((j) => `${j.state} ${j.error?.message ?? ''}`)).toEqual(['completed ']);
    expect(second.charged).toHaveLength(1);
    const results = second.jobs[0]?.outputs.map((o) => basename(o.path)) ?? [];
    expect(results.length).toBeGreaterThanOrEqual(2);
    for (const r of results) {
      expect(r).toMatch(/ \(2\)\.[a-z0-9]+$/);
      expect(bytes(`${r}.part`)).toBeLessThanOrEqual(255);
    }
    expect(second.written.sort()).toEqual([...first.written, ...results].sort());
  });
});

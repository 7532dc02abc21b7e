import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceOutput, type ApiGeneration } from '../../../shared/contract/jobs';
import { OUTPUT_TYPES } from '../../../shared/api/common';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
});
afterAll(() => sb.stop());

async function dubAll(api: ApiGeneration, files: string[], to: string[], extra: { studio?: boolean } = {}) {
  const engine = engineFor(sb);
  const out = tempDir('dubdesk-out-');
  const batch = { inputs: files, to, studio: extra.studio ?? false, api, outDir: out };
  const estimate = await engine.api.estimate(batch);
  expect(estimate.files.filter((f) => f.problem)).toEqual([]);
  const { added } = await engine.api.add(batch);
  const outcome = await engine.run({ ...quickRun(2), pollIntervalMs: 100 });
  const jobs = (await allJobs(engine.api)).filter((j) => added.includes(j.id));
  await engine.close();
  return { outcome, jobs, out, estimate: estimate.credits };
}

/** Every output on disk is byte for byte what the sandbox served for that dub and type. */
async function expectServedBytes(jobs: Awaited<ReturnType<typeof dubAll>>['jobs']) {
  for (const job of jobs) {
    const dub = sb.state.dubs.get(job.remoteId ?? '');
    expect(dub, `remote dub of #${job.id}`).toBeDefined();
    for (const o of job.outputs.filter(isServiceOutput)) {
      const artifact = dub?.artifacts?.[o.type];
      expect(artifact, `${o.type} of #${job.id}`).toBeDefined();
      const [mine, theirs] = await Promise.all([readFile(o.path), readFile(artifact?.path ?? '')]);
      expect(mine.equals(theirs), o.path).toBe(true);
      expect(o.bytes).toBe(theirs.length);
    }
  }
}

const requests = (name: string) => sb.state.requests.get(name) ?? 0;

describe.each(['v2', 'v1'] as const)('engine end to end over %s', (api) => {
  it('dubs a video and an audio file into two languages: media + subtitles, named for players', async () => {
    const before = startedDubs(sb).length;
    const detailsBefore = requests('GET /api/v2/dubs/:id');
    const { outcome, jobs, out, estimate } = await dubAll(
      api,
      [videoMp4(3, `clip-${api}.mp4`), audioMp3(2.5, `talk-${api}.mp3`)],
      ['es', 'fr'],
    );
    expect(outcome).toBe('done');
    expect(jobs).toHaveLength(4);
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    const names = jobs.flatMap((j) => j.outputs.map((o) => o.path.slice(out.length + 1))).sort();
    expect(names).toEqual(
      [
        `clip-${api}.es.mp4`,
        `clip-${api}.es.vtt`,
        `clip-${api}.fr.mp4`,
        `clip-${api}.fr.vtt`,
        `talk-${api}.es.mp3`,
        `talk-${api}.es.vtt`,
        `talk-${api}.fr.mp3`,
        `talk-${api}.fr.vtt`,
      ].sort(),
    );
    await expectServedBytes(jobs);
    expect(startedDubs(sb).length - before).toBe(4);
    // Measured duration and charge come from the service; the estimate matched them.
    const charged = jobs.reduce((n, j) => n + (j.creditsCharged ?? 0), 0);
    const ledger = sb.state.ledger.filter((c) => jobs.some((j) => j.remoteId === c.dubId));
    expect(ledger).toHaveLength(4);
    expect(charged).toBe(ledger.reduce((n, c) => n + c.seconds, 0));
    expect(charged).toBe(estimate);
    for (const j of jobs) expect(j.measuredDuration).toBeGreaterThan(2);
    // Progress comes from the lists. A v2 list carries the completed dub's fresh links, so the download
    // starts from them; a v1 list has none: only then is a completed dub asked for its details, once.
    expect(requests('GET /api/v2/dubs/:id') - detailsBefore).toBe(api === 'v2' ? 0 : 4);
    expect(requests(api === 'v2' ? 'GET /api/v2/dubs' : 'GET /api/v1/dubs')).toBeGreaterThan(0);
  });
});

describe('engine end to end over legacy', () => {
  it('dubs an MP4 through init, pre-signed PUT and start, and fetches the outputs', async () => {
    const { outcome, jobs, out } = await dubAll('legacy', [videoMp4(2, 'legacy-clip.mp4')], ['de', 'ja']);
    expect(outcome).toBe('done');
    expect(jobs.map((j) => [j.destLang, j.state, j.api])).toEqual([
      ['de', 'completed', 'legacy'],
      ['ja', 'completed', 'legacy'],
    ]);
    expect(jobs[0]?.outputs.map((o) => o.path)).toEqual([
      join(out, 'legacy-clip.de.mp4'),
      join(out, 'legacy-clip.de.vtt'),
    ]);
    await expectServedBytes(jobs);
    expect(sb.state.dubs.get(jobs[0]?.remoteId ?? '')?.generation).toBe('legacy');
  });
});

describe('engine options', () => {
  it('studio quality is charged double and --outputs all fetches every type, named for people, once each', async () => {
    const { api, run, close } = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    const batch = {
      inputs: [videoMp4(2, 'studio.mp4')],
      to: ['it'],
      from: 'en',
      studio: true,
      outDir: out,
      outputs: 'all' as const,
    };
    expect((await api.estimate(batch)).credits).toBe(4);
    await api.add(batch);
    expect(await run({ ...quickRun(2), pollIntervalMs: 100 })).toBe('done');
    const [job] = await allJobs(api);
    await close();
    expect(job?.creditsCharged).toBe(4);
    expect(sb.state.ledger.find((c) => c.dubId === job?.remoteId)?.seconds).toBe(4);
    expect(job?.outputs.map((o) => o.type).sort()).toEqual(
      [...OUTPUT_TYPES].sort() /* a video dub offers every type */,
    );
    // Every type is its own file (the sandbox's outputs differ, as the service's do), each named once.
    const names = job?.outputs.map((o) => o.path.slice(out.length + 1)).sort();
    expect(names).toEqual(
      [
        'studio.it.mp4',
        'studio.it (service format).mp4',
        'studio.it.mp3',
        'studio.it.vtt',
        'studio.original.vtt',
        'studio.original.mp4',
        'studio.original (converted).mp4',
        'studio.original-audio.mp3',
        'studio.poster.jpg',
      ].sort(),
    );
    await expectServedBytes(job ? [job] : []);
  });

  it('fetches the original once per source, however many languages', async () => {
    const { api, run, close } = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    await api.add({
      inputs: [videoMp4(2, 'once.mp4')],
      to: ['es', 'fr'],
      outDir: out,
      outputs: ['translated_mp4', 'original_subtitle'],
    });
    expect(await run({ ...quickRun(1), pollIntervalMs: 100 })).toBe('done');
    const jobs = await allJobs(api);
    await close();
    const originals = jobs.map((j) => j.outputs.find((o) => o.type === 'original_subtitle')?.path);
    expect(originals).toEqual([join(out, 'once.original.vtt'), join(out, 'once.original.vtt')]);
  });

  it('puts each language in its own folder with --naming folders', async () => {
    const { api, run, close } = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    await api.add({
      inputs: [videoMp4(2, 'foldered.mp4')],
      to: ['es', 'de'],
      outDir: out,
      naming: 'folders',
    });
    expect(await run({ ...quickRun(2), pollIntervalMs: 100 })).toBe('done');
    const paths = (await allJobs(api))
      .flatMap((j) => j.outputs.map((o) => o.path.slice(out.length + 1)))
      .sort();
    await close();
    expect(paths).toEqual(['de/foldered.mp4', 'de/foldered.vtt', 'es/foldered.mp4', 'es/foldered.vtt']);
  });

  it('never overwrites an existing file and does not queue the same source and language twice', async () => {
    const { api, run, close } = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(out, 'keep.es.mp4'), 'mine');
    const batch = { inputs: [videoMp4(2, 'keep.mp4')], to: ['es'], outDir: out };
    const first = await api.add(batch);
    const second = await api.add(batch);
    expect(first.added).toHaveLength(1);
    expect(second).toMatchObject({ added: [], alreadyQueued: first.added, retried: [] });
    expect(await run({ ...quickRun(2), pollIntervalMs: 100 })).toBe('done');
    const [job] = await allJobs(api);
    await close();
    expect(await readFile(join(out, 'keep.es.mp4'), 'utf8')).toBe('mine');
    // One name variant for all of a job's files, so a player still pairs the dub with its subtitles.
    expect(job?.outputs.map((o) => o.path)).toEqual([
      join(out, 'keep.es (2).mp4'),
      join(out, 'keep.es (2).vtt'),
    ]);
  });
});

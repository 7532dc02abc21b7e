import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiGeneration } from '../../../shared/domain';
import { OUTPUT_TYPES } from '../../../shared/api/common';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { engineFor, startedDubs, tempDir } from '../../helpers/engine';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
});
afterAll(() => sb.stop());

async function dubAll(api: ApiGeneration, files: string[], to: string[], extra: { studio?: boolean } = {}) {
  const engine = engineFor(sb);
  const out = tempDir('dubdesk-out-');
  const plan = await engine.plan({
    inputs: files,
    to,
    from: 'auto',
    studio: extra.studio ?? false,
    api,
    outDir: out,
    outputs: 'default',
  });
  expect(plan.rejected).toEqual([]);
  const { added } = engine.add(plan);
  const outcome = await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 100 });
  const jobs = engine.list().filter((j) => added.includes(j.id));
  engine.close();
  return { outcome, jobs, out, estimate: plan.estimate.credits };
}

/** Every output on disk is byte for byte what the sandbox served for that dub and type. */
async function expectServedBytes(jobs: Awaited<ReturnType<typeof dubAll>>['jobs']) {
  for (const job of jobs) {
    const dub = sb.state.dubs.get(job.remoteId ?? '');
    expect(dub, `remote dub of #${job.id}`).toBeDefined();
    for (const o of job.outputs) {
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
    // Progress comes from the lists; only a completed dub is asked for its details (fresh links), once.
    expect(requests('GET /api/v2/dubs/:id') - detailsBefore).toBe(4);
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
  it('studio quality is charged double and --outputs all fetches every type without clobbering', async () => {
    const engine = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    const plan = await engine.plan({
      inputs: [videoMp4(2, 'studio.mp4')],
      to: ['it'],
      from: 'en',
      studio: true,
      api: 'v2',
      outDir: out,
      outputs: 'all',
    });
    expect(plan.estimate.credits).toBe(4);
    engine.add(plan);
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 100 })).toBe('done');
    const [job] = engine.list();
    engine.close();
    expect(job?.creditsCharged).toBe(4);
    expect(sb.state.ledger.find((c) => c.dubId === job?.remoteId)?.seconds).toBe(4);
    expect(job?.outputs.map((o) => o.type).sort()).toEqual(
      [...OUTPUT_TYPES].sort() /* a video dub offers every output type */,
    );
    expect(new Set(job?.outputs.map((o) => o.path)).size).toBe(9);
    await expectServedBytes(job ? [job] : []);
  });

  it('never overwrites an existing file and does not queue the same source and language twice', async () => {
    const engine = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(out, 'keep.es.mp4'), 'mine');
    const req = {
      inputs: [videoMp4(2, 'keep.mp4')],
      to: ['es'],
      from: 'auto',
      studio: false,
      api: 'v2' as const,
      outDir: out,
      outputs: 'default' as const,
    };
    const first = engine.add(await engine.plan(req));
    const second = engine.add(await engine.plan(req));
    expect(first.added).toHaveLength(1);
    expect(second).toEqual({ added: [], existing: first.added, retried: [] });
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 100 })).toBe('done');
    const [job] = engine.list();
    engine.close();
    expect(await readFile(join(out, 'keep.es.mp4'), 'utf8')).toBe('mine');
    expect(job?.outputs.map((o) => o.path)).toEqual([join(out, 'keep.es (2).mp4'), join(out, 'keep.es.vtt')]);
  });
});

import { readFile, stat } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isServiceOutput, type JobDetail } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, quickRun, recordJobs, whenJob } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.4, ...opts });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

const FIVE = ['es', 'fr', 'de', 'it', 'pt'];

/** Each completed job's files are exactly what the service serves for its dub. */
async function expectOutputsIntact(sb: Sandbox, details: JobDetail[]): Promise<void> {
  for (const d of details) {
    expect(d.outputs.length, `#${d.id}`).toBeGreaterThan(0);
    const dub = sb.state.dubs.get(d.remoteId ?? '');
    for (const o of d.outputs.filter(isServiceOutput)) {
      const served = dub?.artifacts?.[o.type]?.path ?? '';
      expect((await readFile(o.path)).equals(await readFile(served)), o.path).toBe(true);
    }
  }
}

function expectChargedOnce(sb: Sandbox, details: JobDetail[]): void {
  const ids = details.map((d) => d.remoteId ?? '').sort();
  expect(new Set(ids).size).toBe(details.length);
  expect(sb.state.ledger.map((c) => c.dubId).sort()).toEqual(ids);
  expect(
    startedDubs(sb)
      .map((d) => d.id)
      .sort(),
  ).toEqual(ids);
}

describe('upload once, dub many', () => {
  it('1 file x 5 languages: one upload, four creates from the service copy, five dubs charged once', async () => {
    const sb = await sandbox();
    const file = videoMp4(2, 'once.mp4');
    const size = (await stat(file)).size;
    const { api, run, close } = engineFor(sb);
    const seen = recordJobs(api);
    const estimate = await api.estimate({ inputs: [file], to: FIVE, uploadOnce: true });
    expect(estimate.uploadOnce).toEqual({ enabled: true, bytesSaved: 4 * size, files: 1, outOf: 1 });
    const { added } = await api.add({ inputs: [file], to: FIVE, uploadOnce: true, outDir: tempDir() });
    expect(added).toHaveLength(5);
    expect(await run(quickRun(3))).toBe('done');

    expect(sb.state.ingest).toMatchObject({
      createsFromFile: 1,
      createsFromOwnLink: 4,
      createsFromUrl: 0,
      fileBytes: size,
      putBytes: 0,
    });
    expect(sb.state.requests.get('POST /api/v2/dubs')).toBe(5);
    const details = await Promise.all(added.map((id) => api.getJob({ id })));
    expect(details.map((d) => d.state)).toEqual(FIVE.map(() => 'completed'));
    expectChargedOnce(sb, details);
    await expectOutputsIntact(sb, details);

    // The others waited for the first language, said why, and say what their dub was made from.
    const waited = seen.filter((j) => j.waiting?.code === 'first-upload');
    expect(new Set(waited.map((j) => j.id)).size).toBe(4);
    expect(waited[0]?.waiting?.message).toMatch(/waiting for the first language's upload to finish/);
    const [first, ...others] = details;
    expect(first?.history.some((h) => /made from the uploaded copy/.test(h.reason ?? ''))).toBe(false);
    for (const d of others) {
      const made = d.history.find((h) => h.event === 'created');
      expect(made?.reason).toMatch(new RegExp(`made from the uploaded copy \\(of dub ${first?.remoteId}\\)`));
      expect(d.history.some((h) => h.event === 'await-first-upload')).toBe(true);
    }
    await close();
  });

  it('uploads instead when the service refuses the link, and says so in the history', async () => {
    const sb = await sandbox({ faults: { rateRefuseSourceUrl: 1 } });
    const file = videoMp4(2, 'refused.mp4');
    const size = (await stat(file)).size;
    const { api, run, close } = engineFor(sb);
    const { added } = await api.add({
      inputs: [file],
      to: ['es', 'fr', 'de'],
      uploadOnce: true,
      outDir: tempDir(),
    });
    expect(await run(quickRun(2))).toBe('done');
    expect(sb.state.ingest).toMatchObject({ createsFromFile: 3, createsFromOwnLink: 0, fileBytes: 3 * size });
    expect(sb.faults.fired.rateRefuseSourceUrl).toBe(2);
    const details = await Promise.all(added.map((id) => api.getJob({ id })));
    expect(details.map((d) => d.state)).toEqual(['completed', 'completed', 'completed']);
    const refused = details.filter((d) =>
      d.history.some(
        (h) =>
          h.event === 'link-refused' && /the service refused the link: uploaded instead/.test(h.reason ?? ''),
      ),
    );
    expect(refused).toHaveLength(2);
    expectChargedOnce(sb, details);
    await expectOutputsIntact(sb, details);
    await close();
  });

  it('when the first language is canceled, the next one uploads: nobody waits forever', async () => {
    const sb = await sandbox({ pipelineSeconds: 1.5 });
    const file = videoMp4(2, 'first-canceled.mp4');
    const { api, run, close } = engineFor(sb);
    const { added } = await api.add({
      inputs: [file],
      to: ['es', 'fr', 'de'],
      uploadOnce: true,
      outDir: tempDir(),
    });
    const [firstId = 0, secondId = 0] = added;
    // Once the first language's dub is on its way (and the others wait for it), the user cancels it.
    void whenJob(api, (j) => j.id === firstId && j.state === 'submitted').then(() =>
      api.cancelJobs({ ids: [firstId] }),
    );
    expect(await run(quickRun(2))).toBe('done');
    const jobs = await allJobs(api);
    expect(jobs.map((j) => j.state)).toEqual(['canceled', 'completed', 'completed']);
    expect(sb.state.ingest).toMatchObject({ createsFromFile: 2, createsFromOwnLink: 1 });
    const second = await api.getJob({ id: secondId });
    expect(second.history.find((h) => h.event === 'created')?.reason).not.toMatch(/uploaded copy/);
    await close();
  });

  it('when the first dub fails on the service, the next language uploads and the failed one can be retried', async () => {
    const sb = await sandbox({ faults: { rateDubFailure: 1 }, pipelineSeconds: 0.6 });
    const file = videoMp4(2, 'first-failed.mp4');
    const { api, run, close } = engineFor(sb);
    const { added } = await api.add({
      inputs: [file],
      to: ['es', 'fr'],
      uploadOnce: true,
      outDir: tempDir(),
    });
    // Only the first dub fails: the sandbox stops failing once the first create is in.
    void whenJob(api, (j) => j.id === added[0] && j.state === 'submitted').then(() =>
      sb.setFaults({ rateDubFailure: 0 }),
    );
    expect(await run(quickRun(2))).toBe('done');
    expect((await allJobs(api)).map((j) => j.state)).toEqual(['failed', 'completed']);
    expect(sb.state.ingest).toMatchObject({ createsFromFile: 2, createsFromOwnLink: 0 });
    // Retried, the failed language is made from the copy the second one left on the service.
    await api.retryJobs({ ids: [added[0] ?? 0] });
    expect(await run(quickRun(2))).toBe('done');
    expect((await allJobs(api)).map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(sb.state.ingest).toMatchObject({ createsFromFile: 2, createsFromOwnLink: 1 });
    await close();
  });

  it('auto: small files and single languages upload as before; the estimate says so', async () => {
    const sb = await sandbox();
    const file = videoMp4(2, 'auto-small.mp4');
    const { api, run, close } = engineFor(sb);
    const estimate = await api.estimate({ inputs: [file], to: ['es', 'fr'] });
    expect(estimate.uploadOnce).toMatchObject({ enabled: false, bytesSaved: 0, files: 0 });
    await api.add({ inputs: [file], to: ['es', 'fr'], outDir: tempDir() });
    expect(await run(quickRun(2))).toBe('done');
    expect(sb.state.ingest).toMatchObject({ createsFromFile: 2, createsFromOwnLink: 0 });
    await close();
  });
});

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diagnose, openDubdesk } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const engineAt = (home: string, url: string) =>
  openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 2,
    checkOutputs: true,
  });

/** Every read a command makes: the list, one job and its history, the header's totals. */
async function everyReadWorks(host: ReturnType<typeof openDubdesk>, id: number) {
  const list = await host.api.listJobs({ offset: 0, limit: 50 });
  expect(list.jobs.map((j) => j.id)).toContain(id);
  const job = await host.api.getJob({ id });
  await host.api.totals();
  return job;
}

describe('numbers the service sends that no dub can have', () => {
  it.each([
    ['absurd', 1e300, /measured_duration.*1e\+300/],
    ['negative', -100000, /measured_duration.*-100000/],
  ])(
    'an %s measured_duration fails the job, names the value, and every later read still works',
    async (_w, md, said) => {
      service = await fakeService({ dub: { measured_duration: md } });
      const home = tempDir();
      const host = engineAt(home, service.url);
      const { added } = await host.api.add({
        inputs: [videoMp4(2, 'clip.mp4')],
        to: ['es'],
        outDir: tempDir(),
      });
      const id = added[0] ?? 0;
      expect(await host.run(quickRun())).toBe('done');
      const job = await everyReadWorks(host, id);
      expect(job.state).toBe('failed');
      expect(job.error?.message).toMatch(said);
      expect(job.creditsCharged === null || job.creditsCharged >= 0).toBe(true);
      // The create was answered (the dub exists): none is made again for an answer that cannot be read.
      expect(service.dubs.size).toBe(1);
      await host.close();
      // A later session (status, run, cancel --all) reads the same rows.
      const again = engineAt(home, service.url);
      await everyReadWorks(again, id);
      await again.api.cancelJobs({ ids: [id] });
      await again.close();
    },
  );

  it('a dub whose list item turns absurd fails its own job at the next poll; the other job goes on', async () => {
    service = await fakeService({ dub: { external_status_id: 2, measured_duration: null } });
    const home = tempDir();
    const host = engineAt(home, service.url);
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'one.mp4'), videoMp4(3, 'two.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    const run = host.run(quickRun());
    await expect.poll(() => service?.dubs.size ?? 0, { timeout: 20_000 }).toBe(2);
    const [bad, good] = [...(service?.dubs.values() ?? [])];
    if (!bad || !good) throw new Error('no dubs');
    Object.assign(bad, { external_status_id: 5, measured_duration: 1e300 });
    Object.assign(good, { external_status_id: 5, measured_duration: 3.2 });
    expect(await run).toBe('done');
    const jobs = await Promise.all(added.map((id) => host.api.getJob({ id })));
    const failed = jobs.filter((j) => j.state === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error?.message).toMatch(/measured_duration the service sent 1e\+300 s/);
    expect(failed[0]?.error?.message).not.toMatch(/gave up/);
    // Its charge is the broken figure itself: unknown, and the job says where to look.
    expect(failed[0]?.creditsCharged).toBeNull();
    expect(failed[0]?.error?.remedy).toMatch(/check the charge for this dub in your account there/);
    expect(jobs.filter((j) => j.state === 'completed')).toHaveLength(1);
    await host.close();
  });

  it('a completed dub whose list item is broken elsewhere fails its job, charged what it measured', async () => {
    service = await fakeService({ dub: { external_status_id: 2, measured_duration: null } });
    const host = engineAt(tempDir(), service.url);
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'one.mp4')], to: ['es'], outDir: tempDir() });
    const run = host.run(quickRun());
    await expect.poll(() => service?.dubs.size ?? 0, { timeout: 20_000 }).toBe(1);
    for (const d of service.dubs.values())
      Object.assign(d, { external_status_id: 5, measured_duration: 3.2, progress_percentage: 150 });
    expect(await run).toBe('done');
    const job = await everyReadWorks(host, added[0] ?? 0);
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/not a dub Dubdesk can accept: progress_percentage/);
    expect(job.creditsCharged).toBe(4);
    expect(job.history.at(-1)?.reason).toMatch(/; the service charged 4 cr for it$/);
    expect((await host.api.totals()).creditsCharged).toBe(4);
    await host.close();
  });

  it('a row already holding such a number (an older version wrote it) leaves every command working; the doctor names it', async () => {
    service = await fakeService({});
    const home = tempDir();
    const host = engineAt(home, service.url);
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'old.mp4')], to: ['es'], outDir: tempDir() });
    const id = added[0] ?? 0;
    expect(await host.run(quickRun())).toBe('done');
    await host.close();
    const db = new Database(join(home, 'dubdesk.db'));
    db.prepare('UPDATE jobs SET measured_duration = 1e300, credits_charged = 1e300 WHERE id = ?').run(id);
    db.close();

    const again = engineAt(home, service.url);
    const job = await everyReadWorks(again, id);
    expect(job.creditsCharged).toBeNull();
    await again.api.cancelJobs({ ids: [id] });
    await again.api.retryJobs({ ids: [id] });
    await again.close();
    const checks = await diagnose({
      home,
      versions: { node: process.versions.node },
      keyStore: 'file',
      api: () => Promise.resolve(engineAt(home, service?.url ?? '').api),
      startSandbox: null,
    });
    const database = checks.find((c) => c.title === 'Queue database');
    expect(database?.ok).toBe(false);
    expect(database?.detail).toMatch(new RegExp(`job ${id}\\b.*measured`));
  });
});

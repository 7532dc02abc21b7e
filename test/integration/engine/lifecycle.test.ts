import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { allJobs, engineFor, job, quickRun, recordJobs, whenJob } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

const sandboxes: Sandbox[] = [];
async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3, ...opts });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

const req = (inputs: string[], to = ['es']) => ({ inputs, to, outDir: tempDir() });

describe('engine lifecycle', () => {
  it('emits job changes through every state, with transfer figures while moving bytes, and keeps the history', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    const seen = recordJobs(api);
    const { added } = await api.add(req([videoMp4(3, 'events.mp4')]));
    expect(await run(quickRun(1))).toBe('done');
    const states = [...new Set(seen.map((j) => j.state))];
    expect(states).toEqual(
      expect.arrayContaining(['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed']),
    );
    expect(states.at(-1)).toBe('completed');
    expect(
      seen.every(
        (j) =>
          j.state === 'uploading' ||
          j.state === 'downloading' ||
          (j.bytesPerSecond === null && j.etaSeconds === null),
      ),
    ).toBe(true);
    const detail = await api.getJob({ id: added[0] ?? 0 });
    expect(detail.history.map((h) => h.to)).toEqual([
      'queued',
      'uploading',
      'submitted',
      'processing',
      'downloading',
      'completed',
    ]);
    expect(detail.history[0]).toMatchObject({ from: null, event: 'added' });
    await close();
  });

  it("fetches the balance for the totals by itself: an idle queue shows the service's balance", async () => {
    const sb = await sandbox({ balance: 4321 });
    const { api, run, close } = engineFor(sb);
    try {
      await api.totals();
      await expect.poll(async () => (await api.totals()).balance).toBe(4321);
      // After a dub is charged, the balance shown is the service's new one, read again by itself.
      await api.add(req([videoMp4(2, 'charged.mp4')]));
      expect(await run(quickRun(1))).toBe('done');
      const left = sb.state.accounts.values().next().value?.seconds;
      expect(left).toBeLessThan(4321);
      await expect
        .poll(async () => (await api.totals()).balance, { timeout: 20_000, interval: 250 })
        .toBe(left);
    } finally {
      await close();
    }
  });

  it("shows a job's own log lines only, when its number was another cleared job's before", async () => {
    const sb = await sandbox();
    const { api, close } = engineFor(sb);
    try {
      await api.pauseQueue();
      const first = await api.add(req([videoMp4(2, 'first-owner.mp4')]));
      const [id] = first.added;
      await api.cancelJobs({ ids: first.added });
      expect((await api.jobLog({ id: id ?? 0 })).lines.map((l) => l.message)).toContain('cancel');
      await api.clearJobs({ ids: first.added });
      // The next job is created after the last line: once the clock has moved past the clear.
      const cleared = Date.now();
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(cleared), { interval: 1 });
      const second = await api.add(req([audioMp3(2, 'second-owner.mp3')]));
      expect(second.added).toEqual(first.added); // SQLite gives the highest number again once it is free
      const lines = (await api.jobLog({ id: id ?? 0 })).lines.map((l) => l.message);
      expect(lines).not.toContain('cancel');
    } finally {
      await close();
    }
  });

  it('waits for the network while the service is unreachable and resumes by itself', async () => {
    const first = await sandbox();
    const port = first.port;
    await first.stop();
    sandboxes.splice(sandboxes.indexOf(first), 1);
    const { api, run, close } = engineFor(first); // same address, nobody listening now
    // The estimate works offline too: the balance is simply unknown.
    const estimate = await api.estimate(req([videoMp4(2, 'offline.mp4')]));
    expect(estimate).toMatchObject({ jobs: 1, balance: null, overBalance: false });
    await api.add(req([videoMp4(2, 'offline.mp4')]));
    let revived: Promise<Sandbox> | null = null;
    const waited = whenJob(api, (j) => j.waiting?.code === 'offline').then((j) => {
      revived = sandbox({ port });
      return j;
    });
    expect(await run(quickRun(1))).toBe('done');
    expect((await waited).waiting?.message).toBe('waiting for the network');
    const [done] = await allJobs(api);
    await close();
    expect(done?.state).toBe('completed');
    const back = await (revived as unknown as Promise<Sandbox>);
    expect(startedDubs(back)).toHaveLength(1);
  });

  it('wake() ends network waits at once (after sleep), instead of at the end of their backoff', async () => {
    const first = await sandbox();
    const port = first.port;
    await first.stop();
    sandboxes.splice(sandboxes.indexOf(first), 1);
    const host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: first.baseUrl, legacyUrl: first.legacyUrl, apiKey: first.account.apiKey },
      backoff: { baseMs: 120_000, capMs: 120_000 }, // far longer than this test may take
    });
    await host.api.add(req([videoMp4(2, 'wake.mp4')]));
    const waiting = whenJob(host.api, (j) => j.waiting?.code === 'offline');
    const running = host.run(quickRun(1));
    await waiting;
    await sandbox({ port });
    host.wake();
    expect(await running).toBe('done');
    expect((await allJobs(host.api))[0]?.state).toBe('completed');
    await host.close();
  });

  it('pauses the queue on 402 "out of credits" and goes on after a top-up, charging each dub once', async () => {
    const sb = await sandbox({ balance: 0 });
    const { api, run, close } = engineFor(sb);
    await api.add({ ...req([videoMp4(2, 'credits.mp4')], ['es', 'fr']), force: true });
    expect(await run(quickRun())).toBe('credits');
    expect((await api.totals()).paused).toMatchObject({ reason: 'credits' });
    expect((await allJobs(api)).map((j) => [j.state, j.waiting?.code])).toEqual([
      ['queued', 'credits'],
      ['queued', 'credits'],
    ]);
    sb.account.seconds = 100;
    expect(await run(quickRun())).toBe('done');
    expect((await api.totals()).paused).toBeNull();
    await close();
    expect(sb.state.ledger).toHaveLength(2);
  });

  it('refuses a batch over the balance unless forced, before anything is sent', async () => {
    const sb = await sandbox({ balance: 3 });
    const { api, close } = engineFor(sb);
    await expect(api.add(req([videoMp4(2, 'over.mp4')], ['es', 'fr']))).rejects.toMatchObject({
      code: 'credits',
    });
    expect((await api.totals()).total).toBe(0);
    const e = await api.estimate(req([videoMp4(2, 'over.mp4')], ['es', 'fr']));
    expect(e).toMatchObject({ jobs: 2, credits: 4, balance: 3, balanceAfter: -1, overBalance: true });
    await close();
    expect(sb.state.dubs.size).toBe(0);
  });

  it('stops with "API key rejected" on 401 and leaves the jobs queued', async () => {
    const sb = await sandbox();
    const home = tempDir();
    const good = engineFor(sb, home);
    await good.api.add(req([videoMp4(2, 'auth.mp4')]));
    await good.close();
    const revoked = engineFor(sb, home, 'revoked-key');
    await expect(revoked.api.add(req([videoMp4(2, 'auth-2.mp4')]))).rejects.toMatchObject({ code: 'auth' });
    expect(await revoked.run(quickRun(1))).toBe('auth');
    expect((await allJobs(revoked.api)).map((j) => [j.state, j.waiting?.message])).toEqual([
      ['queued', 'API key rejected'],
    ]);
    expect((await revoked.api.totals()).paused).toMatchObject({ reason: 'auth' });
    await revoked.close();
  });

  it('cancel stops a job; retry resumes it without a second dub; a dub failed on the service is made anew', async () => {
    const sb = await sandbox({ faults: { rateDubFailure: 1 } });
    const { api, run, close } = engineFor(sb);
    const { added } = await api.add(req([audioMp3(2, 'retry.mp3')], ['es', 'fr']));
    const [a = 0, b = 0] = added;
    await api.cancelJobs({ ids: [b] });
    expect(await run(quickRun())).toBe('done');
    expect((await job(api, a)).state).toBe('failed');
    expect((await job(api, a)).error).toMatchObject({
      code: 'remote-failed',
      message: expect.stringMatching(/simulated pipeline failure/),
    });
    expect((await job(api, b)).state).toBe('canceled');
    const failedDub = (await job(api, a)).remoteId;

    sb.setFaults({ rateDubFailure: 0 });
    expect((await api.retryJobs({ ids: [a, b] })).changed).toEqual([a, b]);
    expect(await run(quickRun())).toBe('done');
    expect([(await job(api, a)).state, (await job(api, b)).state]).toEqual(['completed', 'completed']);
    expect((await job(api, a)).remoteId).not.toBe(failedDub);
    expect((await api.getJob({ id: a })).abandonedRemoteIds).toEqual([failedDub]);
    // A completed job is not retried, and retrying a finished download does not dub again.
    const again = await api.retryJobs({ ids: [a] });
    expect(again.skipped[0]?.error.message).toMatch(/only failed or canceled/);
    await close();
    expect(startedDubs(sb).filter((d) => d.externalStatusId === 5)).toHaveLength(2);
    expect(sb.state.ledger).toHaveLength(2);
  });

  it('a cancel from another process stops the worker that holds the job', async () => {
    const sb = await sandbox({ faults: { latencyMs: 4000 } });
    const home = tempDir();
    const worker = engineFor(sb, home);
    const { added } = await worker.api.add(req([videoMp4(2, 'elsewhere.mp4')]));
    const uploading = whenJob(worker.api, (j) => j.state === 'uploading');
    const running = worker.run(quickRun(1));
    const other = engineFor(sb, home); // e.g. `dubdesk cancel` while the desktop app works the queue
    await uploading;
    await other.api.cancelJobs({ ids: [added[0] ?? 0] });
    await other.close();
    expect(await running).toBe('done');
    expect((await job(worker.api, added[0] ?? 0)).state).toBe('canceled');
    await worker.close();
    expect(startedDubs(sb)).toHaveLength(0);
  });

  it('pause lets the HTTP step in progress finish, then waits; resume goes on from there without a second dub', async () => {
    // The create's answer is held, so the pause lands while the request is at the service, not before it leaves.
    const sb = await sandbox({ pipelineSeconds: 0.5, faults: { holdCreates: true } });
    const { api, run, close } = engineFor(sb);
    const { added } = await api.add(req([videoMp4(2, 'pause.mp4')]));
    const id = added[0] ?? 0;
    const running = run(quickRun(1));
    await vi.waitFor(() => expect(sb.faults.held.creates.now).toBe(1), { timeout: 30_000 });
    const paused = await api.pauseJobs({ ids: [id] });
    expect(paused.changed).toEqual([id]);
    expect((await job(api, id)).waiting?.code).toBe('pausing');
    sb.setFaults({ holdCreates: false });
    // The create in flight finishes (one dub exists), then the job stops there: the run has nothing left.
    expect(await running).toBe('done');
    expect((await job(api, id)).state).toBe('paused');
    expect(startedDubs(sb)).toHaveLength(1);
    expect((await api.resumeJobs({ ids: [id] })).changed).toEqual([id]);
    expect(await run(quickRun(1))).toBe('done');
    const done = await api.getJob({ id });
    await close();
    expect(done.state).toBe('completed');
    expect(startedDubs(sb)).toHaveLength(1);
    // Resumed, it goes on from the dub it made: nothing queued or sent again. (Whether the create's answer
    // said `submitted` or already `processing` is the service's timing, not the engine's.)
    const states = done.history.map((h) => h.to);
    const afterPause = states.slice(states.indexOf('paused'));
    expect(afterPause).toContain('completed');
    expect(afterPause).not.toContain('queued');
    expect(afterPause).not.toContain('uploading');
  });

  it('pausing the whole queue stops new work; resuming goes on', async () => {
    const sb = await sandbox();
    const { api, run, close } = engineFor(sb);
    await api.add(req([videoMp4(2, 'qpause.mp4')]));
    expect((await api.pauseQueue()).paused).toMatchObject({ reason: 'user' });
    expect(await run(quickRun(1))).toBe('paused');
    expect(sb.state.dubs.size).toBe(0);
    await api.resumeQueue();
    expect(await run(quickRun(1))).toBe('done');
    await close();
    expect(startedDubs(sb)).toHaveLength(1);
  });
});

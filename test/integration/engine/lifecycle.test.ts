import { copyFile, readFile, truncate } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/domain';
import { planJobs } from '../../../electron/engine/plan';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { engineFor, startedDubs, tempDir } from '../../helpers/engine';

const sandboxes: Sandbox[] = [];
async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox({ pipelineSeconds: 0.3, ...opts });
  sandboxes.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.stop()));
});

const req = (inputs: string[], to = ['es']) => ({
  inputs,
  to,
  from: 'auto',
  studio: false,
  api: 'v2' as const,
  outDir: tempDir(),
  outputs: 'default' as const,
});

describe('engine lifecycle', () => {
  it('emits job changes through every state, with transfer figures while moving bytes', async () => {
    const sb = await sandbox();
    const engine = engineFor(sb);
    const seen: JobView[] = [];
    engine.on('job', (j) => seen.push(j));
    engine.add(await engine.plan(req([videoMp4(3, 'events.mp4')])));
    expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    engine.close();
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
  });

  it('waits for the network while the service is unreachable and resumes by itself', async () => {
    const first = await sandbox();
    const port = first.port;
    await first.stop();
    sandboxes.splice(sandboxes.indexOf(first), 1);
    const engine = engineFor(first); // same address, nobody listening now
    engine.add(await planJobs(req([videoMp4(2, 'offline.mp4')])));
    let waited = false;
    let revived: Promise<Sandbox> | null = null;
    engine.on('job', (j) => {
      if (j.waiting === 'waiting for network' && !revived) {
        waited = true;
        revived = sandbox({ port });
      }
    });
    expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    expect(waited).toBe(true);
    const [job] = engine.list();
    engine.close();
    expect(job?.state).toBe('completed');
    const back = await (revived as unknown as Promise<Sandbox>);
    expect(startedDubs(back)).toHaveLength(1);
  });

  it('pauses the queue on 402 "out of credits" and goes on after a top-up, charging each dub once', async () => {
    const sb = await sandbox({ balance: 0 });
    const engine = engineFor(sb);
    engine.add(await engine.plan(req([videoMp4(2, 'credits.mp4')], ['es', 'fr'])));
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('credits');
    expect(engine.queuePaused()).toBe('credits');
    expect(engine.list().map((j) => [j.state, j.waiting])).toEqual([
      ['queued', 'out of credits: add credits, then run the queue again'],
      ['queued', 'out of credits: add credits, then run the queue again'],
    ]);
    sb.account.seconds = 100;
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    expect(engine.queuePaused()).toBeNull();
    engine.close();
    expect(sb.state.ledger).toHaveLength(2);
  });

  it('stops with "API key rejected" on 401 and leaves the jobs queued', async () => {
    const sb = await sandbox();
    const engine = engineFor(sb, tempDir(), 'revoked-key');
    engine.add(await planJobs(req([videoMp4(2, 'auth.mp4')])));
    expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('auth');
    expect(engine.list().map((j) => [j.state, j.waiting])).toEqual([['queued', 'API key rejected']]);
    engine.close();
  });

  it('cancel stops a job; retry resumes it without a second dub; a dub failed on the service is made anew', async () => {
    const sb = await sandbox({ faults: { rateDubFailure: 1 } });
    const engine = engineFor(sb);
    const { added } = engine.add(await engine.plan(req([audioMp3(2, 'retry.mp3')], ['es', 'fr'])));
    const [a = 0, b = 0] = added;
    engine.cancel(b);
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    expect(engine.get(a)?.state).toBe('failed');
    expect(engine.get(a)?.error).toMatch(/simulated pipeline failure/);
    expect(engine.get(b)?.state).toBe('canceled');
    const failedDub = engine.get(a)?.remoteId;

    sb.setFaults({ rateDubFailure: 0 });
    engine.retry(a);
    engine.retry(b);
    expect(await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    expect([engine.get(a)?.state, engine.get(b)?.state]).toEqual(['completed', 'completed']);
    expect(engine.get(a)?.remoteId).not.toBe(failedDub);
    // A completed job is not retried, and retrying a finished download does not dub again.
    expect(() => engine.retry(a)).toThrow(/only failed or canceled/);
    engine.close();
    expect(startedDubs(sb).filter((d) => d.externalStatusId === 5)).toHaveLength(2);
    expect(sb.state.ledger).toHaveLength(2);
  });

  it('a cancel from another process stops the worker that holds the job', async () => {
    const sb = await sandbox({ faults: { latencyMs: 4000 } });
    const home = tempDir();
    const worker = engineFor(sb, home);
    const { added } = worker.add(await worker.plan(req([videoMp4(2, 'elsewhere.mp4')])));
    const running = worker.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 });
    const other = engineFor(sb, home); // e.g. `dubdesk cancel` while the desktop app works the queue
    await new Promise<void>((resolve) => worker.on('job', (j) => j.state === 'uploading' && resolve()));
    other.cancel(added[0] ?? 0);
    other.close();
    expect(await running).toBe('done');
    expect(worker.get(added[0] ?? 0)?.state).toBe('canceled');
    worker.close();
    expect(startedDubs(sb)).toHaveLength(0);
  });

  it('fails at once when no requested output is offered; adding it again with other outputs fetches, not re-dubs', async () => {
    const sb = await sandbox();
    const engine = engineFor(sb);
    const audio = audioMp3(2, 'no-poster.mp3');
    engine.add(await engine.plan({ ...req([audio]), outputs: ['poster'] }));
    expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    const [failed] = engine.list();
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toMatch(/offered none of the requested outputs \(it has: .*translated_mp3/);
    const again = engine.add(await engine.plan({ ...req([audio]), outputs: ['translated_mp3'] }));
    expect(again.retried).toEqual([failed?.id]);
    expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    const [done] = engine.list();
    engine.close();
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
      const engine = engineFor(sb);
      const out = tempDir();
      const url = `http://127.0.0.1:${(origin.address() as { port: number }).port}/talks/keynote%20final.mp4`;
      const plan = await engine.plan({ ...req([url], ['pt']), outDir: out });
      expect(plan.jobs[0]).toMatchObject({
        source_kind: 'url',
        source_name: 'keynote final.mp4',
        duration: null,
      });
      expect(plan.estimate).toEqual({ credits: 0, unknown: 1 });
      engine.add(plan);
      expect(await engine.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      expect(engine.list()[0]?.outputs.map((o) => o.path)).toEqual([
        join(out, 'keynote final.pt.mp4'),
        join(out, 'keynote final.pt.vtt'),
      ]);
      engine.close();
    } finally {
      origin.close();
    }
  });

  it('refuses files over 1 GB for v2 with a message that says so', async () => {
    const big = join(tempDir(), 'huge.mp4');
    await copyFile(videoMp4(2), big);
    await truncate(big, 1024 ** 3 + 1); // sparse: costs no disk
    const plan = await planJobs(req([big]));
    expect(plan.jobs).toEqual([]);
    expect(plan.rejected[0]?.message).toBe(
      `${big}: 1.00 GB is over the 1 GB upload limit of the v2 API. Split or compress it first.`,
    );
    const v1 = await planJobs({ ...req([big]), api: 'v1' });
    expect(v1.jobs).toHaveLength(1);
  });
});

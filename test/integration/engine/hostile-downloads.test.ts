import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import type { HttpLimits } from '../../../electron/engine/api/limits';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const engineAt = (url: string, limits: Partial<HttpLimits> = {}) =>
  openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 2,
    limits,
  });

const subtitles = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/vtt' });
  res.end('WEBVTT\n\n');
};

describe('output links that never end', () => {
  it('a link streaming far more than a dub of the source can be is stopped, and nothing is kept', async () => {
    const source = videoMp4(2, 'clip.mp4');
    const head = readFileSync(source).subarray(0, 4096);
    const LIMIT = 160 * 1024 * 1024;
    let served = 0;
    service = await fakeService({
      download: (req, res) => {
        if (req.url?.endsWith('subtitle')) return subtitles(res);
        res.writeHead(200, { 'content-type': 'video/mp4' }); // no Content-Length
        res.write(head);
        const zeros = Buffer.alloc(1024 * 1024);
        const more = () => {
          while (!res.destroyed && served < LIMIT) {
            served += zeros.length;
            if (!res.write(zeros)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      },
    });
    const host = engineAt(service.url);
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [source], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/kept coming, more than the \d+ MiB a dub of this source can be/);
    expect(await readdir(out)).toEqual([]);
    expect(served).toBeLessThan(2 * 64 * 1024 * 1024);
    await host.close();
  });

  it('a link that says it is 10 GB, for a 2 s source, is refused before a byte is written', async () => {
    service = await fakeService({
      download: (req, res) => {
        if (req.url?.endsWith('subtitle')) return subtitles(res);
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(10 * 1024 ** 3) });
        res.write(Buffer.alloc(1024, 1));
      },
    });
    const host = engineAt(service.url);
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'big.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.error?.message).toMatch(/is 10240 MiB, more than the \d+ MiB/);
    expect(await readdir(out)).toEqual([]);
    await host.close();
  });

  it('a link that trickles (under the idle limit) fails after its retries as too slow', async () => {
    service = await fakeService({
      download: (req, res) => {
        if (req.url?.endsWith('subtitle')) return subtitles(res);
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 100_000 });
        res.write(Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'));
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('x')), 20);
      },
    });
    const host = engineAt(service.url, { progressWindowMs: 300, minDownloadBytes: 1024 });
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'slow.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/too slow/);
    await host.close();
  });

  it('the first Ctrl+C (drain) stops a download in flight; the job resumes next time', async () => {
    service = await fakeService({
      download: (req, res) => {
        if (req.url?.endsWith('subtitle')) return subtitles(res);
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 100_000 });
        res.write(Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'));
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('x')), 200);
      },
    });
    const host = engineAt(service.url);
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'held.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    const drain = new AbortController();
    const run = host.run({ ...quickRun(), drain: drain.signal });
    await expect.poll(() => service?.downloads().length ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
    drain.abort();
    expect(await run).toBe('aborted');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('downloading');
    await host.close();
  });
});

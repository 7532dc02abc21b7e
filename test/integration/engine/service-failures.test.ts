import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { json } from '../../helpers/hostile';
import { quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function engine(url: string, maxServiceAttempts: number) {
  return openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts,
    checkOutputs: true,
  });
}

describe('a step the service keeps failing', () => {
  it('fails after maxServiceAttempts of its failures; waits for the network in between do not count', async () => {
    let requests = 0;
    service = await fakeService({
      download: (_req, res) => {
        requests++;
        if (requests <= 6)
          res.socket?.destroy(); // the line drops before any answer: the network
        else json(res, 500, { error: 'Internal server error' });
      },
    });
    const host = engine(service.url, 3);
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'net.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/^gave up after 3 attempts: /);
    expect(service.downloads()).toHaveLength(6 + 3);
    // The dub completed on the service, so it was charged, whatever became of the download.
    expect(job.creditsCharged).toBe(4);
    expect(await readdir(out)).toEqual([]);
    await host.close();
  });

  it.each([
    ['a web page', 'text/html', '<!DOCTYPE html><title>Oops</title>', 'a text/html document'],
    ['JSON sent as video', 'video/mp4', ' {"error":"link expired"}', 'a JSON document'],
    ['HTML sent as octets', 'application/octet-stream', '\uFEFF<html><body>Sign in', 'a web page'],
  ])('a 200 answer that is %s is not kept as the video', async (_what, type, body, said) => {
    service = await fakeService({
      download: (req, res) => {
        res.writeHead(200, { 'content-type': req.url?.endsWith('subtitle') ? 'text/vtt' : type });
        res.end(req.url?.endsWith('subtitle') ? 'WEBVTT\n\n' : body);
      },
    });
    const host = engine(service.url, 2);
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'page.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.error?.message).toBe(
      `gave up after 2 attempts: the service sent ${said} instead of the translated_mp4 file`,
    );
    expect(await readdir(out)).toEqual([]);
    await host.close();
  });

  it('a program or a script sent as the dub is refused at once, never saved under the name the service gives', async () => {
    const program = Buffer.concat([
      Buffer.from('MZ'),
      Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0]),
      Buffer.alloc(200),
    ]);
    service = await fakeService({
      linkFile: (type) => (type === 'translated_subtitle' ? 'clip.bat' : 'clip.exe'),
      download: (req, res) => {
        const subtitle = req.url?.includes('subtitle');
        res.writeHead(200, { 'content-type': subtitle ? 'text/vtt' : 'video/mp4' });
        res.end(subtitle ? '@echo off\r\nstart calc.exe\r\n' : program);
      },
    });
    const host = engine(service.url, 5);
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'clip.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/the service sent a \.exe file .* as translated_mp4 \(clip\.exe\)/);
    expect(job.error?.remedy).toBeTruthy();
    // Refused on the first try: asking again would only fetch the same program.
    expect(service.downloads().filter((s) => s.url.includes('translated_mp4'))).toHaveLength(1);
    expect(await readdir(out)).toEqual([]);
    await host.close();
  });

  it('a file:// output link fails the job after its tries as a bad link, never as the network', async () => {
    service = await fakeService({
      dub: { outputs: { translated_mp4: { url: 'file:///etc/passwd', download_url: 'file:///etc/passwd' } } },
    });
    const host = engine(service.url, 3);
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'file.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.error?.message).toBe(
      'gave up after 3 attempts: the service gave the output link that is not an http(s) link (file:); Dubdesk does not follow it',
    );
    expect((await host.api.totals()).offline).toBeNull();
    await host.close();
  });

  it('20 MB promised and 1 KB sent, again and again: the first cut is kept, then the job fails as truncated', async () => {
    service = await fakeService({
      download: (req, res) => {
        if (req.url?.endsWith('subtitle')) return json(res, 200, {});
        // (Within what a dub of a 2 s source may weigh: more is refused before a byte is written.)
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(20 * 1024 ** 2) });
        res.write(Buffer.alloc(1024, 1));
        setTimeout(() => res.socket?.destroy(), 20);
      },
    });
    const host = engine(service.url, 3);
    const { added } = await host.api.add({
      inputs: [videoMp4(2, 'liar.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/^gave up after 3 attempts: .*cut short/);
    // The first attempt grew the part file (a resumable cut, waited for); the three after it did not.
    expect(service.downloads().filter((s) => s.url.endsWith('translated_mp4'))).toHaveLength(4);
    await host.close();
  });
});

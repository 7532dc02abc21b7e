/**
 * A hostile or broken service's subtitles, through the engine with real ffmpeg: QC, the SubRip twin and
 * the package say what is wrong with them in words, and never fail on the parser's own limits.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { videoMp4 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service whose dubbed video is a real one, and whose subtitles are `vtt`. */
async function serviceSending(vtt: Buffer): Promise<FakeService> {
  const media = readFileSync(videoMp4(3, 'dubbed.mp4'));
  return fakeService({
    download: (req: IncomingMessage, res: ServerResponse) => {
      const subtitles = req.url?.endsWith('subtitle') ?? false;
      const body = subtitles ? vtt : media;
      res.writeHead(200, {
        'content-type': subtitles ? 'text/vtt' : 'video/mp4',
        'content-length': body.length,
      });
      res.end(body);
    },
  });
}

async function dub(vtt: Buffer) {
  service = await serviceSending(vtt);
  const host = openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: service.url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 2,
  });
  const out = tempDir('out-');
  const { added } = await host.api.add({
    inputs: [videoMp4(3, 'clip.mp4')],
    to: ['es'],
    outDir: out,
    send: 'file',
    subtitles: ['vtt', 'srt'],
    package: 'mkv',
  });
  expect(await host.run(quickRun())).toBe('done');
  const job = await host.api.getJob({ id: added[0] ?? 0 });
  const { sources } = await host.api.listSources({});
  await host.close();
  return { job, out, pack: sources[0]?.package ?? null };
}

const said = (job: Awaited<ReturnType<typeof dub>>['job']) =>
  (job.qc?.problems ?? []).map((p) => `${p.code}: ${p.message}`).join('\n');

describe('subtitles made to break their reader', () => {
  it('200,000 nested tags (600 KB): QC fails them as unreadable, saying why; the dub and its video are kept', async () => {
    const vtt = Buffer.from(`WEBVTT\n\n00:00.000 --> 00:01.000\n${'<i>'.repeat(200_000)}hola\n`);
    const { job, out, pack } = await dub(vtt);
    expect(job.state).toBe('completed');
    expect(job.qc?.verdict).toBe('fail');
    expect(said(job)).toMatch(/subtitles-unreadable: .*tags are nested more than \d+ deep/);
    expect(said(job)).not.toMatch(/call stack/i);
    expect(pack?.error?.message ?? '').not.toMatch(/call stack/i);
    expect(pack?.error?.message).toContain(join(out, 'clip.es.vtt'));
    expect(await readdir(out)).toEqual(expect.arrayContaining(['clip.es.mp4', 'clip.es.vtt']));
  });

  it('markup, a BOM, "-->" in a line and bytes that are not UTF-8: the SubRip twin holds text, never a tag it cannot show', async () => {
    const vtt = Buffer.concat([
      Buffer.from('\uFEFFWEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(1)</script><b>bold</b>\n\n'),
      Buffer.from('00:01.000 --> 00:02.000\nfrom here --> to there\n\n00:02.000 --> 00:02.900\n'),
      Buffer.from([0xff, 0xfe, 0x41, 0x0a]),
    ]);
    const { job, out, pack } = await dub(vtt);
    expect(job.state).toBe('completed');
    expect(said(job)).toMatch(/subtitles-unreadable/);
    const srt = await readFile(join(out, 'clip.es.srt'), 'utf8');
    expect(srt).not.toMatch(/<script|<\/script/);
    expect(srt).toContain('<b>bold</b>');
    expect(pack?.state).toBe('done');
  });

  it('40 MB on one line for a 3 s clip: refused as far more than its subtitles can be, and nothing is kept', async () => {
    const vtt = Buffer.concat([
      Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\n'),
      Buffer.alloc(40 * 1024 * 1024, 'a'),
      Buffer.from('\n'),
    ]);
    const { job, out } = await dub(vtt);
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/translated_subtitle is 41 MiB, more than the 2 MiB/);
    expect(await readdir(out)).not.toContain('clip.es.vtt');
  });
});

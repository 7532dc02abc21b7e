/**
 * A hostile or broken service's dubbed sound, through the engine with real ffmpeg: what the audio path
 * fetches to make the dubbed video, and the sound a user ticked, are never anything but sound. A page, an
 * archive, a picture or nothing in its place fails the job saying what came and what to do, and nothing is
 * charged twice; a file that sniffs as an MP3 but that ffmpeg would read as a playlist of the user's other
 * files never makes ffmpeg open them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { quickRun } from '../../helpers/engine';
import { audioMp3, ffprobeJson, videoMp4 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const engineAt = (url: string) =>
  openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: url, apiKey: 'k' },
    backoff: { baseMs: 20, capMs: 100 },
    maxServiceAttempts: 2,
  });

/** Output links serving `sound` for the dubbed sound, good WebVTT for the subtitles. */
function serving(sound: Buffer) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('subtitle')) {
      res.writeHead(200, { 'content-type': 'text/vtt' });
      res.end('WEBVTT\n\n00:00.000 --> 00:01.000\nhola\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': sound.length });
    res.end(sound);
  };
}

/** A PNG and a zip, made here. */
function png(): Buffer {
  const path = join(tempDir('png-'), 'x.png');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=red:size=32x32',
    '-frames:v',
    '1',
    path,
  ]);
  return readFileSync(path);
}
/** A zip holding one text file (stored): its local header, central directory and end record. */
function zip(): Buffer {
  const name = Buffer.from('a.txt');
  const data = Buffer.from('hello');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** An HLS playlist naming one local file as its only segment. */
const playlist = (segment: string) =>
  `#EXTM3U\n#EXT-X-TARGETDURATION:60\n#EXTINF:60.0,\n${segment}\n#EXT-X-ENDLIST\n`;

/** An ID3v2 tag of `bytes` of padding: longer than any sniffer's window, it hides what follows it. */
function id3(bytes: number): Buffer {
  const size = Buffer.from([(bytes >> 21) & 0x7f, (bytes >> 14) & 0x7f, (bytes >> 7) & 0x7f, bytes & 0x7f]);
  return Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0]), size, Buffer.alloc(bytes)]);
}

/** Another of the user's recordings, outside anything Dubdesk was given: 7 s, as MPEG-TS. */
function usersOtherRecording(): string {
  const path = join(tempDir('private-'), 'private.ts');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=7'],
    ...['-c:a', 'aac', '-f', 'mpegts', path],
  ]);
  return path;
}

describe('the dubbed sound the audio path fetches is not sound', () => {
  const cases: [string, () => Buffer, RegExp][] = [
    [
      'a web page',
      () => Buffer.from('<!doctype html><html><body>Bucket says no</body></html>'),
      /a web page/,
    ],
    ['a zip', zip, /a \.zip file/],
    ['a PNG', png, /a \.png file/],
    ['zero bytes', () => Buffer.alloc(0), /a file of no known media format/],
    [
      'an HLS playlist',
      () => Buffer.from(playlist(usersOtherRecording())),
      /a file of no known media format/,
    ],
  ];
  for (const [what, body, said] of cases)
    it(`${what}: the job fails saying what the service sent, and nothing is charged twice`, async () => {
      service = await fakeService({
        outputs: ['translated_mp3', 'translated_subtitle'],
        download: serving(body()),
      });
      const host = engineAt(service.url);
      const out = tempDir('out-');
      const { added } = await host.api.add({
        inputs: [videoMp4(3, 'clip.mp4')],
        to: ['es'],
        outDir: out,
        send: 'audio',
      });
      expect(await host.run(quickRun())).toBe('done');
      const job = await host.api.getJob({ id: added[0] ?? 0 });
      expect(job.state).toBe('failed');
      expect(job.error?.message).toMatch(said);
      expect(job.error?.message).toMatch(/translated_mp3/);
      expect(job.error?.code).not.toBe('internal');
      expect(job.error?.message).not.toMatch(/ffprobe|ffmpeg/);
      expect(await readdir(out)).not.toContain('clip.es.mp4');
      // One dub created, whatever was retried.
      expect(service.seen.filter((s) => s.method === 'POST' && s.url === '/api/v2/dubs')).toHaveLength(1);
      await host.close();
    });
});

describe('a dubbed sound that ffmpeg would read as a playlist', () => {
  it('sniffs as an MP3 (an ID3 tag longer than the sniff), yet never makes ffmpeg open the file it names', async () => {
    const other = usersOtherRecording();
    const sneaky = Buffer.concat([id3(16 * 1024), Buffer.from(playlist(other))]);
    service = await fakeService({
      outputs: ['translated_mp3', 'translated_subtitle'],
      download: serving(sneaky),
      measuredDuration: 3,
    });
    const host = engineAt(service.url);
    const out = tempDir('out-');
    const { added } = await host.api.add({
      inputs: [audioMp3(3, 'voice.mp3')],
      to: ['es'],
      outDir: out,
      outputs: ['translated_mp3', 'translated_subtitle'],
      package: 'mkv',
    });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    // The private recording lasts 7 s; nothing made or measured here may have read it.
    expect(job.qc?.durationDelta ?? null).not.toBeCloseTo(4, 0);
    // What could not be read is said, naming the file; the result is kept as it came.
    const problem = job.qc?.problems.find((p) => p.code === 'unchecked');
    expect(problem?.message).toContain(join(out, 'voice.es.mp3'));
    expect(problem?.message).toMatch(/its content is none of the formats it may be read as/);
    const made = await readdir(out);
    expect(made).toContain('voice.es.mp3');
    for (const name of made.filter((n) => /\.(mka|mkv)$/.test(n)))
      expect(Number(ffprobeJson(join(out, name)).format.duration)).toBeLessThan(5);
    await host.close();
  });
});

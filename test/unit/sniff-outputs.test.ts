import { describe, expect, it } from 'vitest';
import { sniffOutput } from '../../electron/engine/outputs/sniff';

const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]);
/** A valid MP4 whose first byte is `{`: its first box is 0x7b000018 bytes long (a large `ftyp`-less file). */
const braceFirst = Buffer.concat([
  Buffer.from([0x7b, 0, 0, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.alloc(64),
]);
const exe = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.from([0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]),
  Buffer.alloc(64),
]);

describe('what a downloaded output is, from its bytes', () => {
  it('names media by what the bytes are, whatever the service calls them', async () => {
    expect(await sniffOutput('translated_mp4', 'application/octet-stream', mp4)).toEqual({
      ok: true,
      format: 'mp4',
    });
    expect(await sniffOutput('translated_mp4', 'video/mp4', braceFirst)).toEqual({ ok: true, format: 'mp4' });
    expect(
      await sniffOutput(
        'translated_subtitle',
        null,
        Buffer.from('\uFEFFWEBVTT\n\n00:00.000 --> 00:01.000\nhola\n'),
      ),
    ).toEqual({
      ok: true,
      format: 'vtt',
    });
    expect(
      await sniffOutput(
        'translated_subtitle',
        'text/plain',
        Buffer.from('1\r\n00:00:00,000 --> 00:00:01,000\r\nhola\r\n'),
      ),
    ).toEqual({
      ok: true,
      format: 'srt',
    });
  });

  it('refuses a program or a script, whatever extension or type the service gives it', async () => {
    const program = await sniffOutput('translated_mp4', 'video/mp4', exe);
    expect(program).toMatchObject({ ok: false, page: false });
    expect(program.ok ? '' : program.what).toContain('.exe');
    const script = await sniffOutput(
      'translated_subtitle',
      'text/vtt',
      Buffer.from('@echo off\r\nstart calc.exe\r\n'),
    );
    expect(script).toMatchObject({ ok: false, page: false });
    expect(await sniffOutput('poster', 'image/jpeg', mp4)).toMatchObject({ ok: false, page: false });
  });

  it('tells an error page sent with 200 apart, as worth asking again', async () => {
    expect(
      await sniffOutput('translated_mp4', 'text/html', Buffer.from('<!doctype html><p>busy')),
    ).toMatchObject({
      ok: false,
      page: true,
    });
    expect(
      await sniffOutput('translated_mp4', 'application/json', Buffer.from('{"error":"expired"}')),
    ).toMatchObject({
      ok: false,
      page: true,
    });
  });
});

/** What the desktop shell lets in: files handed to it, links out, media addresses, senders, media files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../../shared/contract/jobs';
import { allowedPrefixes, isAllowedLink, openAppLink } from '../../../electron/main/external-links';
import { mediaUrl, parseMediaUrl } from '../../../electron/main/media-url';
import { parseRange } from '../../../electron/main/media-protocol';
import { filesFromArgv, FileBatcher } from '../../../electron/main/single-instance';
import { isAppUrl, isTrustedSender } from '../../../electron/main/trust';
import { tempDir } from '../../helpers/temp-dir';
import { job } from './fixtures';

describe('files handed to the app', () => {
  it('takes the files and folders of a command line, not switches, not the app folder, not missing names', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'a.mp4'), 'x');
    const argv = [
      '/usr/bin/electron',
      '.',
      '--enable-logging',
      'a.mp4',
      join(dir, 'folder'),
      'missing.mp4',
      'a.mp4',
    ];
    expect(filesFromArgv(argv, { defaultApp: true, cwd: dir })).toEqual([
      join(dir, 'a.mp4'),
      join(dir, 'folder'),
    ]);
    expect(filesFromArgv(['C:\\Dubdesk.exe', join(dir, 'a.mp4')], { defaultApp: false, cwd: '/' })).toEqual([
      join(dir, 'a.mp4'),
    ]);
  });
  it('hands files that arrive one by one (a drop on the dock) over together', async () => {
    const got: string[][] = [];
    const b = new FileBatcher((p) => got.push(p));
    b.add(['/a']);
    b.add(['/b', '/a']);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(got).toEqual([['/a', '/b']]);
  });
});

describe('links to the outside', () => {
  const settings = (baseUrl: string | null, mode: 'service' | 'sandbox' = 'service') => ({
    service: {
      mode,
      configured: true,
      baseUrl,
      legacyUrl: null,
      apiKeySet: true,
      apiKeyHint: null,
      keyStore: null,
    },
  });
  it('opens only https links under the prefixes the app built', () => {
    const prefixes = allowedPrefixes(settings('https://api.dubbing.example/v2'));
    expect(prefixes).toEqual(['https://api.dubbing.example/']);
    expect(isAllowedLink('https://api.dubbing.example/account', prefixes)).toBe(true);
    for (const url of [
      'http://api.dubbing.example/account',
      'https://api.dubbing.example.evil.example/',
      'https://user:pw@api.dubbing.example/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://evil.example/?https://api.dubbing.example/',
      'not a url',
    ])
      expect(isAllowedLink(url, prefixes), url).toBe(false);
    expect(allowedPrefixes(settings('http://127.0.0.1:8787'))).toEqual([]);
    expect(allowedPrefixes(settings(null))).toEqual([]);
    expect(allowedPrefixes(settings('https://x.example', 'sandbox'))).toEqual([]);
    const opened: string[] = [];
    const open = async (u: string) => void opened.push(u);
    expect(openAppLink('https://evil.example/', prefixes, open)).toBe(false);
    expect(openAppLink('https://api.dubbing.example/keys', prefixes, open)).toBe(true);
    expect(opened).toEqual(['https://api.dubbing.example/keys']);
  });
});

describe('media addresses and ranges', () => {
  it('names a job and a kind, and nothing else', () => {
    expect(mediaUrl(12, 'dub')).toBe('dubdesk-media://job/12/dub');
    expect(parseMediaUrl('dubdesk-media://job/12/subtitles')).toEqual({ jobId: 12, kind: 'subtitles' });
    for (const url of [
      'dubdesk-media://job/12/dub/../../etc/passwd',
      'dubdesk-media://job/0/dub',
      'dubdesk-media://job/-1/dub',
      'dubdesk-media://job/12/secret',
      'dubdesk-media://other/12/dub',
      'dubdesk-media://job/12/dub?path=/etc/passwd',
      'dubdesk://job/12/dub',
      'dubdesk-media://job//etc/passwd',
    ])
      expect(parseMediaUrl(url), url).toBeNull();
    expect(() => mediaUrl(1.5, 'dub')).toThrow();
    expect(() => mediaUrl(1, 'passwd' as never)).toThrow();
  });
  it('reads byte ranges as a media element sends them', () => {
    expect(parseRange(null, 100)).toBeNull();
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    for (const bad of ['bytes=100-', 'bytes=5-2', 'bytes=-', 'items=0-1', 'bytes=0-1,5-6', 'bytes=-0'])
      expect(parseRange(bad, 100), bad).toBe('bad');
  });
});

describe('who may talk to the main process', () => {
  const frame = (url: string, parent: unknown = null) => ({ url, parent });
  it('only the app page, in the main frame of one of its windows', () => {
    const main = frame('dubdesk://app/index.html');
    const contents = { mainFrame: main };
    const ours = () => [contents];
    expect(isTrustedSender({ sender: contents, senderFrame: main }, ours)).toBe(true);
    expect(isTrustedSender({ sender: contents, senderFrame: null }, ours)).toBe(false);
    const iframe = frame('dubdesk://app/index.html', main);
    expect(isTrustedSender({ sender: contents, senderFrame: iframe }, ours)).toBe(false);
    const elsewhere = frame('https://evil.example/');
    expect(isTrustedSender({ sender: { mainFrame: elsewhere }, senderFrame: elsewhere }, ours)).toBe(false);
    const stranger = { mainFrame: frame('dubdesk://app/index.html') };
    expect(isTrustedSender({ sender: stranger, senderFrame: stranger.mainFrame }, ours)).toBe(false);
    for (const url of [
      'file:///index.html',
      'dubdesk://evil/index.html',
      'dubdesk://app:1/x',
      'dubdesk://u@app/',
    ])
      expect(isAppUrl(url), url).toBe(false);
  });
});

describe('the media protocol, file by file', () => {
  const jobWith = (outputs: JobView['outputs'], source = '/nowhere/source.mp4') =>
    ({ ...job(7, 'completed', { outputs, source }), sourceType: 'video/mp4' }) as never;
  const apiFor = (detail: unknown) =>
    ({
      getJob: async ({ id }: { id: number }) => {
        if (id !== 7) throw Object.assign(new Error('no job'), { code: 'not-found' });
        return detail;
      },
    }) as never;

  it('turns SRT subtitles into WebVTT for the <track>', async () => {
    const { mediaProtocolHandler } = await import('../../../electron/main/media-protocol');
    const dir = tempDir();
    const srt = join(dir, 'clip.es.srt');
    writeFileSync(srt, '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHola\r\n');
    const handler = mediaProtocolHandler(
      apiFor(jobWith([{ type: 'translated_subtitle', path: srt, bytes: 40 }])),
    );
    const res = await handler(new Request('dubdesk-media://job/7/subtitles'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(await res.text()).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHola\n');
  });

  it('serves regular files only: a folder or a missing file where an output should be is a 404', async () => {
    const { mediaProtocolHandler } = await import('../../../electron/main/media-protocol');
    const dir = tempDir();
    mkdirSync(join(dir, 'clip.es.mp4'));
    const handler = mediaProtocolHandler(
      apiFor(jobWith([{ type: 'translated_mp4', path: join(dir, 'clip.es.mp4'), bytes: 1 }])),
    );
    expect((await handler(new Request('dubdesk-media://job/7/dub'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/7/original'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/8/dub'))).status).toBe(404);
    expect((await handler(new Request('dubdesk-media://job/7/dub', { method: 'POST' }))).status).toBe(405);
  });
});

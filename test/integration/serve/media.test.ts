import { readFileSync, statSync } from 'node:fs';
import { lchown, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../shared/contract/jobs';
import { startServer } from '../../../electron/web/server';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { createWebBridge } from '../../../renderer/src/bridge/web';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { bearer, raw, serveFor, type Served } from '../../helpers/serve';

describe('dubdesk serve: a job’s media', () => {
  let sb: Sandbox;
  let s: Served;
  let port: number;
  let a: JobDetail;
  let b: JobDetail;
  let waiting: number;
  /** Path and query of a media URL as the renderer gets it. */
  const url = (jobId: number, kind: Parameters<Served['client']['mediaUrl']>[1]) => {
    const u = new URL(s.client.mediaUrl(jobId, kind));
    return `${u.pathname}${u.search}`;
  };
  const dubOf = (j: JobDetail) => j.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';

  beforeAll(async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2 });
    s = await serveFor(sb);
    port = s.server.port;
    const out = tempDir();
    const added = await s.client.add({
      inputs: [videoMp4(3, 'media-a.mp4'), videoMp4(2, 'media-b.mp4')],
      to: ['es'],
      outDir: out,
    });
    expect(await s.host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    const [ja, jb] = await Promise.all(added.added.map((id) => s.client.getJob({ id })));
    if (!ja || !jb) throw new Error('expected two jobs');
    [a, b] = [ja, jb];
    const later = await s.client.add({ inputs: [audioMp3(2, 'media-later.mp3')], to: ['fr'], outDir: out });
    waiting = later.added[0] ?? 0;
    await s.client.ready;
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  it('plays a job’s dub over Range requests', async () => {
    const file = readFileSync(dubOf(a));
    const whole = await raw(port, 'GET', url(a.id, 'dub'));
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.equals(file)).toBe(true);

    const first = await raw(port, 'GET', url(a.id, 'dub'), { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${file.length}`);
    expect(first.body.equals(file.subarray(0, 100))).toBe(true);
    // A player seeks: the middle, then the rest from there, then the last bytes.
    const mid = Math.floor(file.length / 2);
    const rest = await raw(port, 'GET', url(a.id, 'dub'), { headers: { range: `bytes=${mid}-` } });
    expect(rest.status).toBe(206);
    expect(rest.body.equals(file.subarray(mid))).toBe(true);
    const tail = await raw(port, 'GET', url(a.id, 'dub'), { headers: { range: 'bytes=-10' } });
    expect(tail.body.equals(file.subarray(-10))).toBe(true);
    const head = await raw(port, 'HEAD', url(a.id, 'dub'));
    expect(head.headers['content-length']).toBe(String(file.length));
    expect(head.body.length).toBe(0);

    // Each job its own files: the original, the subtitles, and another job's dub.
    const original = await raw(port, 'GET', url(a.id, 'original'), { headers: { range: 'bytes=0-9' } });
    expect(original.body.equals(readFileSync(a.source).subarray(0, 10))).toBe(true);
    const subs = await raw(port, 'GET', url(a.id, 'subtitles'));
    expect(subs.headers['content-type']).toMatch(/^text\/vtt/);
    expect(subs.body.toString()).toMatch(/^WEBVTT/);
    expect((await raw(port, 'GET', url(b.id, 'dub'))).body.equals(readFileSync(dubOf(b)))).toBe(true);
    // curl by hand: the session token in the header works too.
    expect((await raw(port, 'GET', `/media/${a.id}/dub`, { headers: bearer(s.server.token) })).status).toBe(
      200,
    );
  });

  it('answers 416 to a range past the end, and the whole file to a malformed one', async () => {
    const size = statSync(dubOf(a)).size;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`]) {
      const r = await raw(port, 'GET', url(a.id, 'dub'), { headers: { range } });
      expect(r.status, range).toBe(416);
      expect(r.headers['content-range']).toBe(`bytes */${size}`);
    }
    const odd = await raw(port, 'GET', url(a.id, 'dub'), { headers: { range: 'pages=1-2' } });
    expect(odd.status).toBe(200);
    expect(odd.body.length).toBe(size);
  });

  it('downloads each of a job’s files under its own name, and nothing past its list', async () => {
    expect(a.outputs.length).toBeGreaterThanOrEqual(2);
    for (const [i, o] of a.outputs.entries()) {
      const u = new URL(s.client.downloadUrl?.(a.id, i) ?? '');
      const r = await raw(port, 'GET', `${u.pathname}${u.search}`);
      expect(r.status, o.path).toBe(200);
      expect(r.body.equals(readFileSync(o.path)), o.path).toBe(true);
      expect(r.headers['content-disposition']).toBe(`attachment; filename=${o.path.split('/').pop()}`);
    }
    const mt = new URL(s.client.downloadUrl?.(a.id, 0) ?? '').search;
    for (const path of [
      `/media/${a.id}/file/${a.outputs.length}${mt}`,
      `/media/${a.id}/file/-1${mt}`,
      `/media/${a.id}/file/01${mt}`,
      `/media/${a.id}/file/..%2F..%2Fetc%2Fpasswd${mt}`,
      `/media/${waiting}/file/0${mt}`,
    ]) {
      const r = await raw(port, 'GET', path);
      // A percent-escaped path is refused before any route (400); the others find no such file (404).
      expect(r.status, path).toBe(path.includes('%2F') ? 400 : 404);
    }
    expect((await raw(port, 'GET', `/media/${a.id}/file/0`)).status).toBe(401);
  });

  it('refuses paths, other ids, unknown kinds, and a missing or wrong token', async () => {
    const mt = new URL(s.client.mediaUrl(a.id, 'dub')).search;
    const refused = [
      `/media/../../etc/passwd${mt}`,
      `/media/${a.id}/../../../../etc/passwd${mt}`,
      `/media/${a.id}/..%2F..%2F..%2Fetc%2Fpasswd${mt}`,
      `/media/${a.id}%2F..%2F${b.id}/dub${mt}`,
      `/media/%2e%2e/dub${mt}`,
      `/media/${a.id}/dub%00${mt}`,
      `/media/${a.id}/dub/extra${mt}`,
      `/media/-1/dub${mt}`,
      `/media/0x1/dub${mt}`,
      `/media/424242/dub${mt}`,
      `/media/${waiting}/dub${mt}`, // a job with nothing to play yet
      `/media/${a.id}/secret${mt}`,
      `/media/${a.id}/DUB${mt}`,
      `/media/${a.id}/translated_mp4${mt}`,
    ];
    for (const path of refused) {
      const r = await raw(port, 'GET', path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(r.body.toString(), path).not.toMatch(/root:|WEBVTT/);
    }
    for (const path of [`/media/${a.id}/dub`, `/media/${a.id}/dub?mt=`, `/media/${a.id}/dub?mt=wrong`]) {
      const r = await raw(port, 'GET', path);
      expect(r.status, path).toBe(401);
      expect(r.json()).toMatchObject({ ok: false, error: { code: 'auth' } });
    }
    // A cleared job's files stay on disk but are not served any more.
    await s.client.clearJobs({ ids: [b.id] });
    expect((await raw(port, 'GET', url(b.id, 'dub'))).status).toBe(404);
  });

  it('lets the preview’s media token play the preview, and download nothing', async () => {
    const mt = new URL(s.client.mediaUrl(a.id, 'dub')).search;
    expect(mt).toMatch(/^\?mt=/);
    for (const kind of ['dub', 'original', 'subtitles'] as const)
      expect((await raw(port, 'GET', url(a.id, kind))).status, kind).toBe(200);
    for (const path of [
      `/media/${a.id}/file/0${mt}`,
      `/media/${a.id}/file/1${mt}`,
      `/media/results.zip${mt}&jobs=${a.id}`,
      `/media/results.zip?jobs=${a.id}&${mt.slice(1)}`,
    ]) {
      const r = await raw(port, 'GET', path);
      expect(r.status, path).toBe(401);
    }
    // The download links' own token downloads, and plays nothing: each token opens one door.
    const dt = new URL(s.client.downloadUrl?.(a.id, 0) ?? '').search;
    expect(dt).not.toContain(mt.slice(1));
    expect((await raw(port, 'GET', `/media/${a.id}/file/0${dt}`)).status).toBe(200);
    expect((await raw(port, 'GET', `/media/results.zip${dt}&jobs=${a.id}`)).status).toBe(200);
    const dtValue = new URLSearchParams(dt).get('dt') ?? 'none';
    expect((await raw(port, 'GET', `/media/${a.id}/dub?mt=${dtValue}`)).status).toBe(401);
    expect((await raw(port, 'POST', '/api/totals', { headers: bearer(dtValue) })).status).toBe(401);
  });

  // Only root can make a link owned by another user, as an attacker's would be.
  it.runIf(process.getuid?.() === 0)(
    "serves a recorded file through the user's own links only: not through a folder swapped for another user's symlink",
    async () => {
      const dir = dirname(
        a.outputs.find((o) => o.path.endsWith('.vtt') || o.path.endsWith('.srt'))?.path ?? '',
      );
      const subtitle =
        a.outputs.find((o) => dirname(o.path) === dir && /\.(srt|vtt)$/.test(o.path))?.path ?? '';
      expect(subtitle).not.toBe('');
      const elsewhere = tempDir();
      await writeFile(
        join(elsewhere, basename(subtitle)),
        '1\n00:00:00,000 --> 00:00:01,000\nnot this job’s words\n',
      );
      await rename(dir, `${dir}.kept`);
      try {
        await symlink(elsewhere, dir);
        // The user's own link (a folder moved to another disk) is followed.
        expect((await raw(port, 'GET', url(a.id, 'subtitles'))).status).toBe(200);
        await lchown(dir, 65534, 65534);
        const r = await raw(port, 'GET', url(a.id, 'subtitles'));
        expect(r.body.toString()).not.toContain('not this job’s words');
        expect(r.status).toBe(404);
      } finally {
        await unlink(dir).catch(() => {});
        await rename(`${dir}.kept`, dir);
      }
      expect((await raw(port, 'GET', url(a.id, 'subtitles'))).status).toBe(200);
    },
  );

  it('serves regular files only: a symlink swapped in for an output is refused', async () => {
    const dub = dubOf(a);
    const kept = `${dub}.kept`;
    await rename(dub, kept);
    try {
      await symlink('/etc/passwd', dub);
      const r = await raw(port, 'GET', url(a.id, 'dub'));
      expect(r.status).toBe(404);
      expect(r.json()).toMatchObject({ ok: false, error: { code: 'not-found', message: /regular file/ } });
      await unlink(dub);
      await symlink(kept, dub); // even one pointing at the job's own file
      expect((await raw(port, 'GET', url(a.id, 'dub'))).status).toBe(404);
    } finally {
      await unlink(dub).catch(() => {});
      await rename(kept, dub);
    }
    expect((await raw(port, 'GET', url(a.id, 'dub'))).status).toBe(200);
  });

  it('turns SRT subtitles into WebVTT on the way', async () => {
    const srt = join(tempDir(), 'subs.es.srt');
    await writeFile(srt, '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHola\r\n');
    // The engine as it would be with a service that delivers SRT: the job's subtitles output is that file.
    const api = {
      ...s.host.api,
      getJob: async (args: { id: number }) => {
        const job = await s.host.api.getJob(args);
        return {
          ...job,
          outputs: job.outputs.map((o) => (o.type === 'translated_subtitle' ? { ...o, path: srt } : o)),
        };
      },
    };
    const server = await startServer({ engine: { api, home: tempDir() }, port: 0, rendererDir: null });
    try {
      const r = await raw(server.port, 'GET', `/media/${a.id}/subtitles`, { headers: bearer(server.token) });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/vtt; charset=utf-8');
      expect(r.body.toString()).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHola\n');
      const client = createWebBridge({ baseUrl: server.origin, token: server.token });
      await client.ready;
      expect((await fetch(client.mediaUrl(a.id, 'subtitles'))).status).toBe(200);
    } finally {
      await server.close();
    }
  });
  it('names a download any script can show (RFC 6266 filename*)', async () => {
    const out = tempDir();
    const added = await s.client.add({ inputs: [videoMp4(1, 'café ü.mp4')], to: ['de'], outDir: out });
    expect(await s.host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    const u = new URL(s.client.downloadUrl?.(added.added[0] ?? 0, 0) ?? '');
    const r = await raw(port, 'GET', `${u.pathname}${u.search}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toMatch(/filename\*=UTF-8''caf%C3%A9%20%C3%BC\.de\./);
  });
});

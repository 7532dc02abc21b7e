import { existsSync, openAsBlob, readdirSync, statSync } from 'node:fs';
import { copyFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { startCli } from '../../helpers/cli';
import { bearer, firstLine, raw, serveEnv, serveFor, tokenOfAddress, type Served } from '../../helpers/serve';
import { createWebBridge } from '../../../renderer/src/bridge/web';

/** A file on disk as the browser hands it over: a file-backed Blob with a name, never read into memory. */
async function browserFile(path: string, name: string): Promise<File> {
  const blob = await openAsBlob(path);
  return new File([blob], name, { type: 'video/mp4', lastModified: statSync(path).mtimeMs });
}

/** Every file under the staging folder, relative to it. */
function staged(home: string): string[] {
  const root = join(home, 'staging');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

/** Streams `bytes` zeros without a Content-Length (chunked); resolves with the status, or the error code. */
function chunkedUpload(port: number, token: string, bytes: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/staging?name=chunked.mp4',
        headers: { host: `127.0.0.1:${port}`, ...bearer(token), 'content-type': 'application/octet-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

const folderOf = (path: string | undefined) => path?.split(sep).at(-2);

/** The most memory a process ever held (Linux), in bytes. */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
}

describe.runIf(process.platform === 'linux')('dubdesk serve: a large drop', () => {
  it('streams a 300 MB file to its own folder of the staging area without holding it in memory', async () => {
    const home = tempDir();
    const { child, done } = startCli(['serve', '--sandbox', '--port', '0', '--no-open'], serveEnv(home));
    try {
      const url = new URL(await firstLine(child));
      const token = await tokenOfAddress(url.href);
      const client = createWebBridge({ baseUrl: url.origin, token });
      const big = join(tempDir(), 'big.mp4');
      await writeFile(big, 'head');
      await truncate(big, 300 * 1024 ** 2); // sparse: made in no time, read as zeros
      await client.totals(); // warm: the server has answered once before its memory is measured
      const before = await peakRss(child.pid ?? 0);
      const progress: [number, number][] = [];
      const [path] = await client.stageFiles([await browserFile(big, 'big.mp4')], (sent, total) =>
        progress.push([sent, total]),
      );
      // The server's peak memory, a loose bound rather than a measurement: 300 MB held would show.
      expect((await peakRss(child.pid ?? 0)) - before).toBeLessThan(100 * 1024 ** 2);
      expect(path?.startsWith(join(home, 'staging') + sep)).toBe(true);
      expect(folderOf(path)).toMatch(/^[\w-]{22}$/);
      expect(path?.split(sep).at(-1)).toBe('big.mp4');
      expect(statSync(path ?? '').size).toBe(300 * 1024 ** 2);
      expect((await readFile(path ?? '')).subarray(0, 4).toString()).toBe('head');
      expect(progress.at(-1)).toEqual([300 * 1024 ** 2, 300 * 1024 ** 2]);
      client.close();
    } finally {
      child.kill('SIGINT');
      await done;
    }
  });
});

describe('dubdesk serve: staging dropped files', () => {
  let sb: Sandbox;
  let s: Served;
  let home: string;

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 10_000 });
    home = tempDir();
    s = await serveFor(sb, { home, maxStagedBytes: 400 * 1024 ** 2 });
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  it('refuses a file over the limit, declared or not, and keeps nothing of it', async () => {
    const before = staged(home);
    const { port, token } = s.server;
    // Declared too large: refused before a byte is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/staging?name=huge.mp4',
          headers: {
            host: `127.0.0.1:${port}`,
            ...bearer(token),
            'content-type': 'application/octet-stream',
            'content-length': String(3 * 1024 ** 3),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(declared).toBe(413);
    // Not declared (chunked): cut off once past the limit; the answer is a 413, or the connection closes.
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(await chunkedUpload(port, token, 401 * 1024 ** 2));
    expect(staged(home)).toEqual(before);
    // The browser's client does not even start sending a file over 2 GiB.
    const huge = join(tempDir(), 'huge.mp4');
    await writeFile(huge, '');
    await truncate(huge, 2 * 1024 ** 3 + 1);
    await expect(s.client.stageFiles([await browserFile(huge, 'huge.mp4')])).rejects.toMatchObject({
      code: 'too-large',
    });
    expect(staged(home)).toEqual(before);
  });

  it('refuses hostile names and keeps unicode ones as they are', async () => {
    const { port, token } = s.server;
    const before = staged(home);
    const hostile = [
      '',
      '.',
      '..',
      '../evil.mp4',
      '../../evil.mp4',
      '..\\evil.mp4',
      'a/b.mp4',
      '/etc/passwd',
      'C:\\Windows\\evil.mp4',
      'nul\0.mp4',
      'line\nbreak.mp4',
      'evil\u202egpj.mp4',
      `${'x'.repeat(256)}.mp4`,
    ];
    for (const name of hostile) {
      const r = await raw(port, 'POST', `/staging?name=${encodeURIComponent(name)}`, {
        headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
        body: 'data',
      });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json()).toMatchObject({ ok: false, error: { code: 'bad-request', field: 'name' } });
    }
    // Encoded separators are decoded once, then refused like plain ones.
    for (const path of ['/staging?name=..%2Fevil.mp4', '/staging?name=%2e%2e%2fevil.mp4', '/staging'])
      expect((await raw(port, 'POST', path, { headers: bearer(token), body: 'x' })).status).toBe(400);
    expect(staged(home)).toEqual(before);
    expect(existsSync(join(home, 'evil.mp4'))).toBe(false);

    const kept = [
      ['Résumé — 日本語 🎬.mp4', 'Résumé — 日本語 🎬.mp4'],
      ['a:b?.mp4', 'a_b_.mp4'],
      ['..hidden..mp4', '..hidden..mp4'],
      ['%2e%2e%2fstill-a-name.mp4', '%2e%2e%2fstill-a-name.mp4'],
    ];
    for (const [name, expected] of kept) {
      const src = join(tempDir(), 'src.bin');
      await writeFile(src, `bytes of ${name}`);
      const [path] = await s.client.stageFiles([await browserFile(src, name ?? '')]);
      expect(path?.split(sep).at(-1)).toBe(expected);
      expect(path?.startsWith(join(home, 'staging') + sep)).toBe(true);
      expect(await readFile(path ?? '', 'utf8')).toBe(`bytes of ${name}`);
    }
  });

  it('a staged file is added like any path, and deleted once its jobs are finished and cleared', async () => {
    const src = join(tempDir(), 'drop.mp4');
    await copyFile(videoMp4(2, 'staging-drop.mp4'), src);
    const [path] = await s.client.stageFiles([await browserFile(src, 'drop.mp4')]);
    const [unused] = await s.client.stageFiles([await browserFile(src, 'never-added.mp4')]);
    const estimate = await s.client.estimate({ inputs: [path ?? ''], to: ['es'] });
    expect(estimate.files[0]).toMatchObject({ problem: null, kind: 'video' });
    // No output folder: the results go beside the staged file, and are the user's to keep.
    const added = await s.client.add({ inputs: [path ?? ''], to: ['es'] });
    expect(added.added).toHaveLength(1);

    // Within the retention period nothing goes; past it, only what no job uses.
    expect(await s.server.sweepStaging()).toEqual([]);
    const swept = await s.server.sweepStaging(0);
    expect(swept).toContain(folderOf(unused));
    expect(swept).not.toContain(folderOf(path));
    expect(existsSync(join(home, 'staging', folderOf(unused) ?? ''))).toBe(false);
    expect(existsSync(path ?? '')).toBe(true);

    expect(await s.host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    const [job] = (await s.client.listJobs({ filter: { source: path ?? '' } })).jobs;
    expect(job?.state).toBe('completed');
    expect(job?.outputs.length).toBeGreaterThan(0);
    expect(await s.server.sweepStaging(0)).toEqual([]); // finished but still listed: kept (its preview plays it)
    await s.client.clearJobs({ ids: [job?.id ?? 0] });
    expect(await s.server.sweepStaging(0)).toEqual([folderOf(path)]);
    expect(existsSync(path ?? '')).toBe(false);
    for (const o of job?.outputs ?? []) expect(existsSync(o.path), o.path).toBe(true); // results stay
  });

  it('the same file dropped again lands on the same path, so it is known as dubbed, even once swept', async () => {
    const src = join(tempDir(), 'again.mp4');
    await copyFile(videoMp4(2, 'staging-again.mp4'), src);
    const [first] = await s.client.stageFiles([await browserFile(src, 'again.mp4')]);
    const [second] = await s.client.stageFiles([await browserFile(src, 'again.mp4')]);
    expect(second).toBe(first);
    const [renamed] = await s.client.stageFiles([await browserFile(src, 'other-name.mp4')]);
    expect(folderOf(renamed)).not.toBe(folderOf(first));
    // The copy keeps the browser's last-modified time (whole milliseconds), as a copy of the file would.
    expect(Math.abs(statSync(first ?? '').mtimeMs - statSync(src).mtimeMs)).toBeLessThan(1.5);

    const added = await s.client.add({ inputs: [first ?? ''], to: ['fr'] });
    expect(await s.host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    await s.client.clearJobs({ ids: added.added });
    expect(await s.server.sweepStaging(0)).toContain(folderOf(first));
    expect(existsSync(first ?? '')).toBe(false);

    const [back] = await s.client.stageFiles([await browserFile(src, 'again.mp4')]);
    expect(back).toBe(first);
    const estimate = await s.client.estimate({ inputs: [back ?? ''], to: ['fr'] });
    expect(estimate.alreadyDone.map((d) => d.jobId)).toEqual(added.added);
    expect(estimate.jobs).toBe(0);
  });

  it('a dropped file may be called like the staging marker', async () => {
    const src = join(tempDir(), 'x.bin');
    await writeFile(src, 'marker-named');
    const [path] = await s.client.stageFiles([await browserFile(src, '.staged')]);
    expect(path?.split(sep).at(-1)).toBe('_.staged');
    expect(await readFile(path ?? '', 'utf8')).toBe('marker-named');
  });
});

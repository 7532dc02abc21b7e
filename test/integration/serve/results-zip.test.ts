/**
 * `GET /media/results.zip?jobs=…` holds at most one result file open at a time, and closes what it opened
 * when a job id is refused or the client goes away mid-zip: thousands of jobs must not run the serve
 * process out of file descriptors. Open files are counted in /proc/self/fd (serve runs in this process).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobDetail } from '../../../shared/contract/jobs';
import { ROUTES } from '../../../shared/serve-routes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { bearer, raw, serveFor, type Served } from '../../helpers/serve';

/** The files under `dir` this process holds open now. */
function openUnder(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dir}/`)) open.push(target);
    } catch {
      /* closed while we looked */
    }
  }
  return open;
}

/** Starts a GET and hands back the response without reading its body (the client is "slow"). */
function startGet(
  port: number,
  path: string,
  token: string,
): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: bearer(token), agent: false }, (res) => {
      res.pause();
      resolve({ req, res });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dubdesk serve: Download all (results.zip)', () => {
  let sb: Sandbox;
  let s: Served;
  let out: string;
  let jobs: JobDetail[];
  const zipPath = (ids: readonly number[]) => `${ROUTES.resultsZip}?jobs=${ids.join(',')}`;

  beforeAll(async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2 });
    s = await serveFor(sb);
    out = tempDir();
    const added = await s.client.add({
      inputs: [videoMp4(2, 'zip-a.mp4'), videoMp4(2, 'zip-b.mp4'), videoMp4(2, 'zip-c.mp4')],
      to: ['es'],
      outDir: out,
    });
    expect(await s.host.run({ untilDone: true, concurrency: 3, pollIntervalMs: 50 })).toBe('done');
    jobs = await Promise.all(added.added.map((id) => s.client.getJob({ id })));
    // Results larger than any socket buffer, so a client that does not read holds the zip mid-file.
    for (const j of jobs) for (const o of j.outputs) truncateSync(o.path, 32 * 1024 * 1024);
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  it('opens one result at a time, as the zip reaches it, and gives every file whole', async () => {
    const files = jobs.flatMap((j) => j.outputs);
    expect(files.length).toBeGreaterThan(3);
    const { res } = await startGet(s.server.port, zipPath(jobs.map((j) => j.id)), s.server.token);
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(openUnder(out).length).toBeGreaterThan(0));
    expect(openUnder(out)).toHaveLength(1);

    const zip = join(tempDir(), 'all.zip');
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.resume();
    await new Promise((done) => res.on('end', done));
    writeFileSync(zip, Buffer.concat(chunks));
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toHaveLength(files.length);
    const first = files[0];
    if (!first) throw new Error('no file');
    const inZip = execFileSync('unzip', ['-p', zip, first.path.slice(out.length + 1)], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(inZip.equals(readFileSync(first.path))).toBe(true);
    await vi.waitFor(() => expect(openUnder(out)).toEqual([]));
  });

  it('a refused job id leaves no file open', async () => {
    const r = await raw(s.server.port, 'GET', zipPath([...jobs.map((j) => j.id), 999_999]), {
      headers: bearer(s.server.token),
    });
    expect(r.status).toBe(404);
    await vi.waitFor(() => expect(openUnder(out)).toEqual([]), { timeout: 3000 });
  });

  it('a client that goes away mid-zip leaves no file open', async () => {
    const { req } = await startGet(s.server.port, zipPath(jobs.map((j) => j.id)), s.server.token);
    await vi.waitFor(() => expect(openUnder(out).length).toBeGreaterThan(0));
    req.destroy();
    await vi.waitFor(() => expect(openUnder(out)).toEqual([]), { timeout: 3000 });
  });
});

describe('dubdesk serve: Download all with the same names from different folders', () => {
  it('keeps every result: each under its own folder, none dropped or overwritten', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.2 });
    const s = await serveFor(sb);
    try {
      const root = tempDir();
      // Two different videos called intro.mp4, and an Intro.mp4 (one name on macOS and Windows), each in a
      // folder of its own with its results beside it.
      const sources = [
        [videoMp4(2, 'intro.mp4'), join(root, 'course-a')],
        [videoMp4(3, 'intro.mp4'), join(root, 'course-b')],
        [videoMp4(2, 'Intro.mp4'), join(root, 'course-c', 'out')],
      ] as const;
      const ids: number[] = [];
      for (const [input, outDir] of sources) {
        const added = await s.client.add({ inputs: [input], to: ['es'], outDir });
        ids.push(...added.added);
      }
      expect(await s.host.run({ untilDone: true, concurrency: 3, pollIntervalMs: 50 })).toBe('done');
      const files = (await Promise.all(ids.map((id) => s.client.getJob({ id })))).flatMap((j) => j.outputs);
      expect(files.length).toBeGreaterThanOrEqual(3);

      const r = await raw(s.server.port, 'GET', `${ROUTES.resultsZip}?jobs=${ids.join(',')}`, {
        headers: bearer(s.server.token),
      });
      expect(r.status).toBe(200);
      const zip = join(tempDir(), 'all.zip');
      writeFileSync(zip, r.body);
      const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
      expect(names).toHaveLength(files.length);
      // Unique however a file system compares names.
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      const contents = names.map((n) => execFileSync('unzip', ['-p', zip, n], { maxBuffer: 1 << 26 }));
      for (const f of files) {
        const bytes = readFileSync(f.path);
        expect(
          contents.some((c) => c.equals(bytes)),
          f.path,
        ).toBe(true);
      }
      // Each result keeps its own name under a folder saying where it came from.
      expect(names).toContain('course-a/intro.es.mp4');
      expect(names).toContain('course-b/intro.es.mp4');
      expect(names).toContain('out/Intro.es.mp4');
    } finally {
      await s.close();
      await sb.stop();
    }
  });
});

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { bearer, heldUpload, raw, serveFor, type Served } from '../../helpers/serve';

const incoming = (home: string) => {
  const root = join(home, 'staging');
  return existsSync(root) ? readdirSync(root).filter((n) => n.startsWith('.incoming-')).length : 0;
};

/**
 * Staging had a cap per file only: 200 uploads at once were all accepted, and together they could fill the
 * disk of the data folder. Now the staged total has a cap (a configured one, and the disk's free space
 * less a margin), and so does the number of uploads at once.
 */
describe('dubdesk serve: staging has a total and a number of uploads at once', () => {
  let sb: Sandbox;
  let s: Served;
  let home: string;
  const up = (bytes: number, name = 'clip.mp4') =>
    raw(s.server.port, 'POST', `/staging?name=${name}`, {
      headers: { ...bearer(s.server.token), 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(bytes, 1),
    });

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    home = tempDir();
    s = await serveFor(sb, { home, maxStagedTotalBytes: 100_000, maxConcurrentUploads: 2 });
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  it('refuses a file that would take the staged total past its cap, with 413 and what to do', async () => {
    expect((await up(60_000, 'a.mp4')).status).toBe(200);
    const r = await up(60_000, 'b.mp4');
    expect(r.status).toBe(413);
    expect(r.json()).toMatchObject({
      ok: false,
      error: { code: 'too-large', message: /staging is full/, remedy: /by its path/ },
    });
    // What fits still goes in.
    expect((await up(30_000, 'c.mp4')).status).toBe(200);
  });

  it('refuses more uploads at once than its limit, with 429, and takes the next once one ended', async () => {
    const held = [
      heldUpload(s.server.port, s.server.token, 1000),
      heldUpload(s.server.port, s.server.token, 1000),
    ];
    try {
      await vi.waitFor(() => expect(incoming(home)).toBe(2));
      const third = await up(10, 'third.mp4');
      expect(third.status).toBe(429);
      expect(third.json()).toMatchObject({ ok: false, error: { code: 'busy', message: /at once/ } });
    } finally {
      for (const h of held) h.req.end(Buffer.alloc(990));
    }
    expect(await Promise.all(held.map((h) => h.status))).toEqual([200, 200]);
    expect((await up(10, 'fourth.mp4')).status).toBe(200);
  });

  it('keeps a margin of the disk free whatever the cap', async () => {
    const tight = await serveFor(sb, { stagingDiskMarginBytes: 2 ** 60 });
    try {
      const r = await raw(tight.server.port, 'POST', '/staging?name=x.mp4', {
        headers: { ...bearer(tight.server.token), 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(10),
      });
      expect(r.status).toBe(413);
      expect(r.json()).toMatchObject({
        ok: false,
        error: { code: 'too-large', message: /free on the disk/ },
      });
    } finally {
      await tight.close();
    }
  });
});

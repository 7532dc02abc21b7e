import { describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { tempDir } from '../../helpers/engine';
import { DUB_V2, PROFILE_V2, json, readBody, serversClosedAfterEach } from '../../helpers/hostile';
import { videoMp4 } from '../../helpers/media';

const server = serversClosedAfterEach();

/**
 * A service that drops every create's answer, then lists a never-ending series of pages of someone else's
 * dubs, all dated now: the lost-answer lookup must give up after a bounded number of pages.
 */
const pagesForever = () =>
  server(async (req, res, seen) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v2/me') return json(res, 200, PROFILE_V2);
    if (url.pathname === '/api/langs')
      return json(res, 200, [{ code: 'es', name: 'Spanish', emoji: '', flagUrl: '' }]);
    if (url.pathname === '/api/v2/dubs' && req.method === 'POST') {
      await readBody(req, seen);
      req.socket.destroy(); // the answer is lost
      return;
    }
    if (url.pathname === '/api/v2/dubs') {
      const page = Number(url.searchParams.get('page'));
      const other = { ...DUB_V2, id: `other-${page}`, dubbing_id: `other-${page}`, name: 'someone-else.mp4' };
      return json(res, 200, {
        dubs: [{ ...other, created_at: new Date().toISOString() }],
        pagination: { page, page_size: 100, total: 1e11, total_pages: 1e9 },
      });
    }
    json(res, 404, { error: 'no' });
  });

const engineAt = (url: string, maxServiceAttempts = 2) =>
  openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: url, apiKey: 'k' },
    backoff: { baseMs: 10, capMs: 20 },
    maxServiceAttempts,
  });

const listRequests = (seen: { method: string; url: string }[]) =>
  seen.filter((s) => s.method === 'GET' && s.url.startsWith('/api/v2/dubs?')).length;

describe('the lookup for a dub whose create answer was lost', () => {
  it('reads a bounded number of pages, then fails the job rather than paying twice', async () => {
    const svc = await pagesForever();
    const host = engineAt(svc.url);
    const { added } = await host.api.add({
      inputs: [videoMp4(1, 'lost.mp4')],
      to: ['es'],
      outDir: tempDir(),
    });
    expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 20 })).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/newer than/);
    expect(listRequests(svc.seen)).toBeLessThanOrEqual(2 * 10);
    await host.close();
  });

  it('stops at the first Ctrl+C (drain): no more pages once asked', async () => {
    const svc = await pagesForever();
    const host = engineAt(svc.url, 1000);
    await host.api.add({ inputs: [videoMp4(1, 'lost2.mp4')], to: ['es'], outDir: tempDir() });
    const drain = new AbortController();
    const run = host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 20, drain: drain.signal });
    await expect.poll(() => listRequests(svc.seen), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const atDrain = listRequests(svc.seen);
    drain.abort();
    expect(await run).toBe('aborted');
    expect(listRequests(svc.seen)).toBeLessThanOrEqual(atDrain + 1);
    await host.close();
  });
});

describe('the lookup for a lost create whose dub the list shows in a shape Dubdesk refuses', () => {
  it('takes that dub as its own (the job then fails naming the fault) and never creates another', async () => {
    let creates = 0;
    const broken = () => ({ ...DUB_V2, name: 'odd.mp4', duration: 1, progress_percentage: 150 });
    const svc = await server(async (req, res, seen) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/v2/me') return json(res, 200, PROFILE_V2);
      if (url.pathname === '/api/langs')
        return json(res, 200, [{ code: 'es', name: 'Spanish', emoji: '', flagUrl: '' }]);
      if (url.pathname === '/api/v2/dubs' && req.method === 'POST') {
        await readBody(req, seen);
        // The first create makes the dub and its answer is lost; another would be refused (a test's end).
        if (creates++ === 0) return void req.socket.destroy();
        return json(res, 400, { error: 'a second dub of the same file' });
      }
      if (url.pathname === '/api/v2/dubs') {
        const dubs = creates ? [{ ...broken(), created_at: new Date().toISOString() }] : [];
        return json(res, 200, { dubs, pagination: { page: 1, page_size: 100, total: 1, total_pages: 1 } });
      }
      json(res, 404, { error: 'no' });
    });
    const host = engineAt(svc.url);
    const { added } = await host.api.add({ inputs: [videoMp4(1, 'odd.mp4')], to: ['es'], outDir: tempDir() });
    expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 20 })).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();
    expect(creates).toBe(1);
    expect(job.state).toBe('failed');
    expect(job.remoteId).toBe(DUB_V2.id);
    expect(job.error?.message).toMatch(/progress_percentage/);
  });
});

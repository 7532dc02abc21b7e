import { describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { tempDir } from '../../helpers/temp-dir';
import { DUB_V2, PROFILE_V2, json, readBody, serversClosedAfterEach } from '../../helpers/hostile';
import { videoMp4 } from '../../helpers/media';

const server = serversClosedAfterEach();

/**
 * A service that drops every create's answer, then lists a never-ending series of pages of someone else's
 * dubs, all dated now and new at every call (the newest dub seen before the create is never listed again):
 * the lost-answer lookup must give up after a bounded number of pages.
 */
let lists = 0;
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
      const id = `other-${++lists}-${page}`;
      const other = { ...DUB_V2, id, dubbing_id: id, name: 'someone-else.mp4' };
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
    // One look at the newest dub before the create, then at most 10 pages per attempt.
    expect(listRequests(svc.seen)).toBeLessThanOrEqual(1 + 2 * 10);
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

type Json = Record<string, unknown>;

/**
 * A service that loses every create's answer, having made `made(now)` dubs for it (newest first), with
 * `before` made earlier; `listed` decides what its list shows of them once the create is in.
 */
function losingEveryAnswer(
  before: Json[],
  made: (at: string) => Json[],
  listed: (all: Json[]) => Json[] = (all) => all,
) {
  let creates = 0;
  let dubs = [...before];
  const fixture = server(async (req, res, seen) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v2/me') return json(res, 200, PROFILE_V2);
    if (url.pathname === '/api/langs')
      return json(res, 200, [{ code: 'es', name: 'Spanish', emoji: '', flagUrl: '' }]);
    if (url.pathname === '/api/v2/dubs' && req.method === 'POST') {
      await readBody(req, seen);
      creates++;
      dubs = [...made(new Date().toISOString()), ...dubs];
      return void req.socket.destroy();
    }
    if (url.pathname === '/api/v2/dubs') {
      const shown = creates ? listed(dubs) : dubs;
      const size = Number(url.searchParams.get('page_size') ?? 20);
      const pagination = { page: 1, page_size: size, total: shown.length, total_pages: 1 };
      return json(res, 200, { dubs: shown.slice(0, size), pagination });
    }
    json(res, 404, { error: 'no' });
  });
  return { fixture, creates: () => creates };
}

const dub = (id: string, name: string, created_at: string): Json => ({
  ...DUB_V2,
  id,
  dubbing_id: id,
  name,
  duration: 1,
  created_at,
});

describe('the lookup for a lost create that cannot tell which dub is its own', () => {
  it('two dubs of the same name made since the create: the job fails naming the account, no other made', async () => {
    const name = 'twice.mp4';
    const svc = losingEveryAnswer([], (at) => [dub('a', name, at), dub('b', name, at)]);
    const host = engineAt((await svc.fixture).url);
    const { added } = await host.api.add({ inputs: [videoMp4(1, name)], to: ['es'], outDir: tempDir() });
    expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 20 })).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.close();
    expect(svc.creates()).toBe(1);
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/cannot tell which .* \(a, b\)/);
    expect(job.error?.remedy).toMatch(/account/);
  });

  it.each([
    ['a time it writes that does not parse: the job fails, no other made', '27/11/2026 19:43', 'failed'],
    ['a time after the newest dub before the create: it is taken', null, 'submitted'],
  ])('the newest dub before the create deleted since, its own with %s', async (_how, written, state) => {
    const name = `deleted-mark-${state}.mp4`;
    const svc = losingEveryAnswer(
      [dub('old', 'someone-else.mp4', '2026-01-01T00:00:00Z')],
      (at) => [dub('mine', name, written ?? at)],
      (all) => all.filter((d) => d.id !== 'old'),
    );
    const host = engineAt((await svc.fixture).url);
    const { added } = await host.api.add({ inputs: [videoMp4(1, name)], to: ['es'], outDir: tempDir() });
    const run = host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 20 });
    await expect.poll(async () => (await host.api.getJob({ id: added[0] ?? 0 })).state).toBe(state);
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    await host.api.cancelJobs({ ids: [job.id] });
    await run;
    await host.close();
    expect(svc.creates()).toBe(1);
    if (state === 'failed') expect(job.error?.remedy).toMatch(/account/);
    else expect(job.remoteId).toBe('mine');
  });
});

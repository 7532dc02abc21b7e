/**
 * The contract suite's first half: the account, estimates, adding, listing and acting on jobs, working the
 * queue to the end, and paying once. The tests run in order on one data folder (test/contract/suite.ts).
 */
import { copyFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { audioMp3, textFile, videoMp4 } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';
import { failsWith, HEARD, plain } from './checks';
import type { SuiteState } from './harness';

const video = () => videoMp4(2, 'contract-a.mp4');
const audio = () => audioMp3(2, 'contract-b.mp3');

export function jobTests(state: () => SuiteState): void {
  it('appInfo, languages, account and settings answer in plain JSON', async () => {
    const { api, sb } = state();
    const info = await api.appInfo();
    plain('appInfo', info);
    expect(info.name).toBe('Dubdesk');
    const langs = await api.languages();
    plain('languages', langs);
    expect(langs.languages).toHaveLength(92);
    expect(langs.languages.filter((l) => l.legacy)).toHaveLength(17);
    expect(langs.languages.map((l) => l.code)).not.toContain('auto');
    const account = await api.account();
    plain('account', account);
    expect(account.balance).toBe(sb.account.seconds);
    const settings = await api.getSettings();
    plain('getSettings', settings);
    expect(settings.service.apiKeySet).toBe(true);
    expect(JSON.stringify(settings)).not.toContain(sb.account.apiKey);
  });

  it('testKey checks a key without keeping it: auth for a wrong one', async () => {
    const { api, sb } = state();
    const ok = await api.testKey({ apiKey: 'poor-key', baseUrl: sb.baseUrl });
    plain('testKey', ok);
    expect(ok.balance).toBe(1);
    await failsWith('auth', () => api.testKey({ apiKey: 'not-a-key', baseUrl: sb.baseUrl }));
    expect((await api.account()).balance).toBe(sb.account.seconds); // the key in use did not change
  });

  it('refuses malformed arguments as bad-request, naming the field', async () => {
    const { api } = state();
    const e = await failsWith('bad-request', () => api.estimate({ inputs: [video()], to: [] }));
    expect(e.field).toBe('to');
    await failsWith('bad-request', () => api.listJobs({ limit: 0 }));
    await failsWith('bad-request', () => api.getJob({ id: -1 }));
    await failsWith('bad-request', () => api.setSettings({ concurrency: 999 }));
    await failsWith('bad-request', () => api.retryJobs({}));
    // An unknown field is refused too: a typo never passes silently.
    await failsWith('bad-request', () =>
      api.add({ inputs: [video()], to: ['es'], destination: '/x' } as never),
    );
  });

  it('estimate prices good files, names bad ones, and refuses bad languages and folders', async () => {
    const { api, sb } = state();
    const out = tempDir();
    const notes = textFile('contract-notes.mp4', 'not a video\n'.repeat(10));
    const e = await api.estimate({ inputs: [video(), audio(), notes], to: ['es', 'fr'], outDir: out });
    plain('estimate', e);
    expect(e.jobs).toBe(4);
    expect(e.files.find((f) => f.input === notes)?.problem?.code).toBe('not-media');
    const perLanguage = e.files
      .filter((f) => !f.problem)
      .reduce((n, f) => n + (f.creditsPerLanguage ?? 0), 0);
    expect(e.credits).toBe(perLanguage * 2);
    expect(e).toMatchObject({
      balance: sb.account.seconds,
      balanceAfter: sb.account.seconds - e.credits,
      overBalance: false,
    });
    const studio = await api.estimate({ inputs: [video()], to: ['es'], studio: true, outDir: out });
    expect(studio.credits).toBe((e.files[0]?.creditsPerLanguage ?? 0) * 2);

    expect(
      (await failsWith('bad-language', () => api.estimate({ inputs: [video()], to: ['xx'] }))).field,
    ).toBe('to');
    await failsWith('bad-language', () => api.estimate({ inputs: [video()], to: ['sw'], api: 'legacy' }));
    await failsWith('bad-language', () => api.estimate({ inputs: [video()], to: ['auto'] }));
    // A language typed by its name: the error says its code.
    expect(
      (await failsWith('bad-language', () => api.estimate({ inputs: [video()], to: ['english'] }))).remedy,
    ).toBe('Languages go by their code: en for English.');
    const file = join(out, 'a-file');
    await writeFile(file, 'x');
    expect(
      (await failsWith('disk', () => api.estimate({ inputs: [video()], to: ['es'], outDir: file }))).field,
    ).toBe('outDir');

    // A window or web page has no working folder: relative paths are refused, never guessed, and a link
    // needs an output folder; the rest of the batch is priced all the same.
    const relative = await failsWith('bad-request', () =>
      api.estimate({ inputs: [video()], to: ['es'], outDir: 'dubbed' }),
    );
    expect(relative).toMatchObject({ field: 'outDir', message: 'dubbed is not a full path' });
    const mixed = await api.estimate({
      inputs: [video(), 'talks/intro.mp4', 'https://example.com/talk.mp4', 'ftp://example.com/talk.mp4'],
      to: ['es'],
    });
    expect(mixed.jobs).toBe(1);
    expect(Object.fromEntries(mixed.files.map((f) => [f.input, f.problem?.message ?? null]))).toEqual({
      [video()]: null,
      'talks/intro.mp4': 'talks/intro.mp4: not a full path.',
      'https://example.com/talk.mp4':
        'https://example.com/talk.mp4: a link has no folder of its own for its results.',
      'ftp://example.com/talk.mp4':
        'ftp://example.com/talk.mp4: only http:// and https:// links can be dubbed.',
    });

    const big = join(tempDir(), 'contract-huge.mp4');
    await copyFile(video(), big);
    await truncate(big, 1024 ** 3 + 1);
    expect((await api.estimate({ inputs: [big], to: ['es'] })).files[0]?.problem?.code).toBe('too-large');
  });

  it('add queues, reports what was already queued, and refuses a batch over the balance unless forced', async () => {
    const { api } = state();
    const out = tempDir();
    const first = await api.add({ inputs: [video(), audio()], to: ['es', 'fr'], outDir: out });
    plain('add', first);
    expect(first.added).toHaveLength(4);
    const again = await api.add({ inputs: [video()], to: ['es'], outDir: out });
    expect(again).toMatchObject({ added: [], alreadyQueued: [first.added[0]] });
    // A minute of video, studio quality, ten languages: 1,200 credits against a balance of 1,000.
    const long = videoMp4(60, 'contract-long.mp4');
    const ten = ['de', 'it', 'ja', 'ko', 'pt', 'ru', 'zh', 'nl', 'pl', 'tr'];
    const over = await failsWith('credits', () =>
      api.add({ inputs: [long], to: ten, studio: true, outDir: out }),
    );
    expect(over.message).toMatch(/balance is/);
    expect((await api.totals()).total).toBe(4); // nothing of the refused batch was queued
  });

  it('lists jobs and sources a page at a time, with filters', async () => {
    const { api } = state();
    const page = await api.listJobs({ offset: 1, limit: 2 });
    plain('listJobs', page);
    expect(page).toMatchObject({ total: 4, offset: 1 });
    expect(page.jobs).toHaveLength(2);
    const es = await api.listJobs({ filter: { search: 'contract-a' } });
    expect(es.jobs.every((j) => j.sourceName === 'contract-a.mp4')).toBe(true);
    const sources = await api.listSources({ limit: 10 });
    plain('listSources', sources);
    expect(sources.total).toBe(2);
    expect(sources.sources.map((s) => s.jobs.map((j) => j.destLang))).toEqual([
      ['es', 'fr'],
      ['es', 'fr'],
    ]);
    const queuedOnly = await api.listSources({ filter: { states: ['completed'] } });
    expect(queuedOnly).toMatchObject({ total: 0, sources: [] });
  });

  it('acts on jobs by ids or filter: each job changed or skipped with why', async () => {
    const { api } = state();
    const { jobs } = await api.listJobs({ limit: 10 });
    const [a, b, c] = jobs.map((j) => j.id);
    const paused = await api.pauseJobs({ ids: [a ?? 0] });
    plain('pauseJobs', paused);
    expect(paused.changed).toEqual([a]);
    expect((await api.getJob({ id: a ?? 0 })).state).toBe('paused');
    const twice = await api.pauseJobs({ ids: [a ?? 0, 9999] });
    expect(twice.skipped.map((s) => [s.id, s.error.code])).toEqual([
      [a, 'conflict'],
      [9999, 'not-found'],
    ]);
    expect((await api.resumeJobs({ ids: [a ?? 0] })).changed).toEqual([a]);
    expect((await api.cancelJobs({ ids: [b ?? 0] })).changed).toEqual([b]);
    expect((await api.retryJobs({ ids: [c ?? 0] })).skipped[0]?.error.code).toBe('conflict');
    const cleared = await api.clearJobs({ filter: { states: ['queued'] } });
    expect(cleared.changed).toEqual([]); // only finished jobs are ever cleared
    expect((await api.retryJobs({ filter: { states: ['canceled'] } })).changed).toEqual([b]);
    const detail = await api.getJob({ id: b ?? 0 });
    plain('getJob', detail);
    expect(detail.history.map((x) => x.to)).toEqual(['queued', 'canceled', 'queued']);
    await failsWith('not-found', () => api.getJob({ id: 424242 }));
  });

  it('pauses and resumes the whole queue', async () => {
    const { api } = state();
    const paused = await api.pauseQueue();
    plain('pauseQueue', paused);
    expect(paused.paused).toMatchObject({ reason: 'user' });
    expect((await api.resumeQueue()).paused).toBeNull();
  });

  it('works the queue to the end with events in order, and shows the result in totals and logs', async () => {
    const { api, sb, h, events } = state();
    const from = events.length;
    expect(await h.runUntilDone()).toBe('done');
    const { jobs } = await api.listJobs({ limit: 10 });
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // Events arrive numbered without gaps, and each job's states in its life's order. A remote face may
    // still be delivering them when runUntilDone returns: wait for each job's last one and the totals.
    const jobEvents = (id: number) =>
      events.slice(from).flatMap((e) => (e.type === 'job' && e.job.id === id ? [e.job] : []));
    const statesOf = (id: number) => jobEvents(id).map((j) => j.state);
    await vi.waitFor(() => {
      for (const j of jobs) expect(statesOf(j.id).at(-1), `job ${j.id}'s last event`).toBe('completed');
      expect(events.slice(from).some((e) => e.type === 'totals')).toBe(true);
    }, HEARD);
    const mine = events.slice(from);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 1) + i));
    const order = ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed'];
    for (const j of jobs) {
      // A wait is part of a job's life (its file written again since the add, an error or the network to
      // wait out, another language's upload): back to queued with what it waits for, then on. Any other
      // step back is an event out of order.
      const lives = jobEvents(j.id).filter((e) => !(e.state === 'queued' && e.waiting !== null));
      const ranks = lives.map((e) => order.indexOf(e.state));
      const said = jobEvents(j.id).map((e) => (e.waiting ? `${e.state}(${e.waiting.code})` : e.state));
      expect(ranks, `job ${j.id}: ${said.join(' ')}`).toEqual([...ranks].sort((x, y) => x - y));
      expect(statesOf(j.id).at(-1)).toBe('completed');
    }
    expect(mine.some((e) => e.type === 'totals')).toBe(true);
    const totals = await api.totals();
    plain('totals', totals);
    expect(totals).toMatchObject({ total: 4, left: 0, counts: expect.objectContaining({ completed: 4 }) });
    expect(totals.creditsCharged).toBe(sb.state.ledger.reduce((n, c) => n + c.seconds, 0));
    const log = await api.jobLog({ id: jobs[0]?.id ?? 0 });
    plain('jobLog', log);
    expect(log.lines.map((l) => l.message).join('\n')).toMatch(/completed/);
    expect(JSON.stringify(log)).not.toContain(sb.account.apiKey);
    expect(JSON.stringify(log)).not.toMatch(/X-Amz-Signature=/);
  });

  it('reports a source already dubbed instead of paying again; clear removes finished jobs, never files', async () => {
    const { api } = state();
    const { jobs } = await api.listJobs({ limit: 10 });
    const done = jobs[0];
    const again = await api.add({ inputs: [video()], to: ['es'], outDir: done?.outDir ?? tempDir() });
    expect(again.alreadyDone.map((d) => d.jobId)).toEqual([done?.id]);
    expect(again.added).toEqual([]);
    const cleared = await api.clearJobs({ ids: [done?.id ?? 0] });
    plain('clearJobs', cleared);
    expect(cleared.changed).toEqual([done?.id]);
    await failsWith('not-found', () => api.getJob({ id: done?.id ?? 0 }));
    const { existsSync } = await import('node:fs');
    for (const o of done?.outputs ?? []) expect(existsSync(o.path), o.path).toBe(true);
  });
}

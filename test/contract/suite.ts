/**
 * The contract's own test suite, written once against `DubdeskApi`. Every transport runs it: in-process
 * (test/contract/in-process.test.ts), HTTP (`dubdesk serve`) and IPC (the Electron shell), each through a
 * harness that gives the suite an api on a fresh data folder talking to a sandbox.
 */
import { copyFile, mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES, type ContractError } from '../../shared/contract/errors';
import type { EngineEvent } from '../../shared/contract/events';
import { METHODS, type DubdeskApi, type MethodName } from '../../shared/contract/methods';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { audioMp3, textFile, videoMp4 } from '../helpers/media';
import { tempDir } from '../helpers/engine';

export interface ContractHarness {
  api: DubdeskApi;
  /** Works the queue until every job is done (wherever the engine runs: this process or a server's). */
  runUntilDone(): Promise<string>;
  close(): Promise<void>;
}

/** Opens the api under test on a fresh data folder, talking to `sandbox` with `apiKey`. */
export type MakeHarness = (sandbox: Sandbox, opts: { apiKey: string }) => Promise<ContractHarness>;

const ErrorShape = z.object({ code: z.enum(ERROR_CODES), message: z.string().min(1) });

/** Calls `fn`, expects it to fail with a contract error of `code`; returns the error for more checks. */
async function failsWith(code: ContractError['code'], fn: () => Promise<unknown>): Promise<ContractError> {
  try {
    await fn();
  } catch (e) {
    const parsed = ErrorShape.safeParse(e);
    expect(parsed.success, `a contract error, got ${String(e)}`).toBe(true);
    expect((e as ContractError).code).toBe(code);
    return e as ContractError;
  }
  throw new Error(`expected a '${code}' error, the call succeeded`);
}

/** Results are plain JSON: they survive a JSON round trip unchanged, and match their schema. */
function plain<K extends MethodName>(name: K, value: unknown): void {
  expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  const parsed = METHODS[name].output.safeParse(value);
  expect(
    parsed.success,
    `${name} result matches its schema: ${parsed.success ? '' : parsed.error.message}`,
  ).toBe(true);
}

export function contractSuite(transport: string, make: MakeHarness): void {
  describe(`the contract over ${transport}`, () => {
    let sb: Sandbox;
    let h: ContractHarness;
    let api: DubdeskApi;
    const events: EngineEvent[] = [];
    const video = () => videoMp4(2, 'contract-a.mp4');
    const audio = () => audioMp3(2, 'contract-b.mp3');

    beforeAll(async () => {
      sb = await startSandbox({
        pipelineSeconds: 0.3,
        balance: 1000,
        users: [{ apiKey: 'poor-key', seconds: 1 }],
      });
      h = await make(sb, { apiKey: sb.account.apiKey });
      api = h.api;
      api.subscribe((e) => events.push(e));
    });
    afterAll(async () => {
      await h?.close();
      await sb?.stop();
    });

    it('appInfo, languages, account and settings answer in plain JSON', async () => {
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
      const ok = await api.testKey({ apiKey: 'poor-key', baseUrl: sb.baseUrl });
      plain('testKey', ok);
      expect(ok.balance).toBe(1);
      await failsWith('auth', () => api.testKey({ apiKey: 'not-a-key', baseUrl: sb.baseUrl }));
      expect((await api.account()).balance).toBe(sb.account.seconds); // the key in use did not change
    });

    it('refuses malformed arguments as bad-request, naming the field', async () => {
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
      const paused = await api.pauseQueue();
      plain('pauseQueue', paused);
      expect(paused.paused).toMatchObject({ reason: 'user' });
      expect((await api.resumeQueue()).paused).toBeNull();
    });

    it('works the queue to the end with events in order, and shows the result in totals and logs', async () => {
      const from = events.length;
      expect(await h.runUntilDone()).toBe('done');
      const { jobs } = await api.listJobs({ limit: 10 });
      expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
      // Events arrive numbered without gaps, and each job's states in its life's order.
      await new Promise((r) => setTimeout(r, 400));
      const mine = events.slice(from);
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 1) + i));
      const order = ['queued', 'uploading', 'submitted', 'processing', 'downloading', 'completed'];
      for (const j of jobs) {
        const states = mine.flatMap((e) => (e.type === 'job' && e.job.id === j.id ? [e.job.state] : []));
        const ranks = states.map((s) => order.indexOf(s));
        expect(ranks, `job ${j.id}: ${states.join(' ')}`).toEqual([...ranks].sort((x, y) => x - y));
        expect(states.at(-1)).toBe('completed');
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

    it('changes settings and says so in an event', async () => {
      const from = events.length;
      const s = await api.setSettings({
        concurrency: 3,
        defaults: { languages: ['es', 'de'] },
        favouriteLanguages: ['ja'],
      });
      plain('setSettings', s);
      expect(s).toMatchObject({
        concurrency: 3,
        favouriteLanguages: ['ja'],
        defaults: expect.objectContaining({ languages: ['es', 'de'] }),
      });
      expect((await api.getSettings()).recentLanguages.slice(0, 2)).toEqual(['es', 'fr']);
      expect(
        (await failsWith('bad-request', () => api.setSettings({ defaults: { outDir: 'dubbed' } }))).field,
      ).toBe('defaults.outDir');
      await new Promise((r) => setTimeout(r, 100));
      expect(events.slice(from).some((e) => e.type === 'settings')).toBe(true);
    });

    it('manages watched folders: add, change (a versioned field bumps the version), pause, rescan, remove', async () => {
      const from = events.length;
      const dir = tempDir('dubdesk-contract-watch-');
      const out = tempDir('dubdesk-contract-out-');
      const added = await api.addWatchFolder({ path: dir, preset: { to: ['es', 'fr'], outDir: out } });
      plain('addWatchFolder', added);
      expect(added).toMatchObject({
        path: dir,
        outDir: out,
        presetVersion: 1,
        paused: false,
        preset: expect.objectContaining({
          to: ['es', 'fr'],
          after: 'leave',
          recursive: false,
          creditLimit: null,
        }),
        counts: expect.objectContaining({ waiting: 0, queued: 0, done: 0, awaitingApproval: 0 }),
        creditsPerHour: 7200,
      });
      // Watched by whichever process works the queue: inactive when none does.
      expect(['inactive', 'starting', 'watching']).toContain(added.status);
      const listed = await api.listWatchFolders();
      plain('listWatchFolders', listed);
      expect(listed.folders.map((f) => f.id)).toEqual([added.id]);

      const studio = await api.updateWatchFolder({ id: added.id, preset: { studio: true } });
      plain('updateWatchFolder', studio);
      expect(studio).toMatchObject({ presetVersion: 2, creditsPerHour: 14400 });
      expect(studio.preset).toMatchObject({ studio: true, to: ['es', 'fr'] });
      const limited = await api.updateWatchFolder({
        id: added.id,
        preset: { creditLimit: 100, after: 'move' },
      });
      expect(limited).toMatchObject({
        presetVersion: 2,
        preset: expect.objectContaining({ creditLimit: 100 }),
      });
      const paused = await api.updateWatchFolder({ id: added.id, paused: true });
      expect(paused).toMatchObject({ paused: true, status: 'paused' });
      expect((await api.updateWatchFolder({ id: added.id, paused: false })).paused).toBe(false);
      plain('rescanWatchFolder', await api.rescanWatchFolder({ id: added.id }));
      const files = await api.listWatchFiles({ id: added.id });
      plain('listWatchFiles', files);
      expect(files).toMatchObject({ total: 0, offset: 0, files: [] });
      const approved = await api.approveWatchFolder({ id: added.id });
      plain('approveWatchFolder', approved);
      expect(approved).toEqual({ queued: 0, jobIds: [], credits: 0 });

      // Events are throttled (a face refetches nothing: each carries the whole folder as it is now).
      await new Promise((r) => setTimeout(r, 700));
      const told = events.slice(from).filter((e) => e.type === 'watch-folder' && e.folder.id === added.id);
      expect(told.at(-1)).toMatchObject({ folder: { presetVersion: 2, preset: { creditLimit: 100 } } });

      const removed = await api.removeWatchFolder({ id: added.id });
      plain('removeWatchFolder', removed);
      expect(removed).toEqual({ id: added.id });
      expect((await api.listWatchFolders()).folders).toEqual([]);
      await new Promise((r) => setTimeout(r, 700));
      const mine = events.slice(from);
      expect(mine.some((e) => e.type === 'watch-folder-removed' && e.id === added.id)).toBe(true);
      expect((await api.totals()).total).toBe(3); // watching folders queued nothing here
    });

    it('refuses folders it cannot watch, naming the path and the fix', async () => {
      const dir = tempDir('dubdesk-contract-watch-');
      const missing = join(dir, 'not-there');
      const notFound = await failsWith('not-found', () =>
        api.addWatchFolder({ path: missing, preset: { to: ['es'] } }),
      );
      expect(notFound).toMatchObject({ field: 'path', message: expect.stringContaining(missing) });
      const file = join(dir, 'a-file.mp4');
      await writeFile(file, 'x');
      const isFile = await failsWith('bad-request', () =>
        api.addWatchFolder({ path: file, preset: { to: ['es'] } }),
      );
      expect(isFile).toMatchObject({
        field: 'path',
        message: expect.stringContaining(`${file} is a file, not a folder`),
      });
      expect(isFile.remedy).toMatch(/folder/);
      expect(
        (await failsWith('bad-language', () => api.addWatchFolder({ path: dir, preset: { to: ['xx'] } })))
          .field,
      ).toBe('to');
      await failsWith('bad-request', () =>
        api.addWatchFolder({ path: dir, preset: { to: ['es'], after: 'delete' } } as never),
      );
      const outFile = join(dir, 'out-file');
      await writeFile(outFile, 'x');
      await failsWith('disk', () =>
        api.addWatchFolder({ path: dir, preset: { to: ['es'], outDir: outFile } }),
      );

      const parent = await api.addWatchFolder({ path: dir, preset: { to: ['es'], recursive: true } });
      await failsWith('conflict', () => api.addWatchFolder({ path: dir, preset: { to: ['fr'] } }));
      const sub = join(dir, 'sub');
      await mkdir(sub);
      const nested = await failsWith('conflict', () =>
        api.addWatchFolder({ path: sub, preset: { to: ['fr'] } }),
      );
      expect(nested.message).toMatch(/already watched with its subfolders/);
      await api.removeWatchFolder({ id: parent.id });

      for (const call of [
        () => api.updateWatchFolder({ id: 4242, paused: true }),
        () => api.removeWatchFolder({ id: 4242 }),
        () => api.listWatchFiles({ id: 4242 }),
        () => api.approveWatchFolder({ id: 4242 }),
        () => api.rescanWatchFolder({ id: 4242 }),
        () => api.reprocessWatchFile({ id: 4242, path: file }),
      ])
        await failsWith('not-found', call);
      await failsWith('bad-request', () => api.updateWatchFolder({ id: 1, preset: { to: [] } }));
    });

    it('counts a language once however it is typed (estimate, spending limit, settings)', async () => {
      const out = tempDir();
      const once = await api.estimate({ inputs: [video()], to: ['es'], outDir: out });
      const typedFourWays = await api.estimate({
        inputs: [video()],
        to: ['es', 'es', 'ES', ' es '],
        outDir: out,
      });
      expect(typedFourWays).toMatchObject({ languages: ['es'], jobs: once.jobs, credits: once.credits });
      expect(
        (await api.estimate({ inputs: [video()], to: [' FR', 'es', 'fr '], outDir: out })).languages,
      ).toEqual(['fr', 'es']);

      const dir = tempDir('dubdesk-contract-watch-');
      const folder = await api.addWatchFolder({ path: dir, preset: { to: ['es', 'es', 'es'], outDir: out } });
      expect(folder).toMatchObject({ preset: expect.objectContaining({ to: ['es'] }), creditsPerHour: 3600 });
      const changed = await api.updateWatchFolder({ id: folder.id, preset: { to: ['de', 'DE', 'es'] } });
      expect(changed).toMatchObject({
        preset: expect.objectContaining({ to: ['de', 'es'] }),
        creditsPerHour: 7200,
      });
      await api.removeWatchFolder({ id: folder.id });

      const before = await api.getSettings();
      const saved = await api.setSettings({
        defaults: { languages: ['ja', 'JA', ' ja'] },
        favouriteLanguages: ['ko', 'Ko', 'ko'],
      });
      expect(saved).toMatchObject({ defaults: { languages: ['ja'] }, favouriteLanguages: ['ko'] });
      await api.setSettings({
        defaults: { languages: before.defaults.languages },
        favouriteLanguages: before.favouriteLanguages,
      });
    });

    it('an unsubscribed listener hears nothing more', async () => {
      const heard: EngineEvent[] = [];
      const stop = api.subscribe((e) => heard.push(e));
      stop();
      await api.pauseQueue();
      await api.resumeQueue();
      await new Promise((r) => setTimeout(r, 400));
      expect(heard).toEqual([]);
    });
  });
}

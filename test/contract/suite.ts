/**
 * The contract's own test suite, written once against `DubdeskApi`. Every transport runs it: in-process
 * (test/contract/in-process.test.ts), HTTP (`dubdesk serve`) and IPC (the Electron shell), each through a
 * harness that gives the suite an api on a fresh data folder talking to a sandbox.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../shared/contract/events';
import type { DubdeskApi } from '../../shared/contract/methods';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';
import { failsWith, HEARD, plain } from './checks';
import type { ContractHarness, MakeHarness } from './harness';
import { againTests } from './suite-again';
import { trackTests } from './suite-tracks';
import { jobTests } from './suite-jobs';

const video = () => videoMp4(2, 'contract-a.mp4');

export type { ContractHarness, MakeHarness } from './harness';

export function contractSuite(transport: string, make: MakeHarness): void {
  describe(`the contract over ${transport}`, () => {
    let sb: Sandbox;
    let h: ContractHarness;
    let api: DubdeskApi;
    const events: EngineEvent[] = [];

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

    jobTests(() => ({ sb, h, api, events }));

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
      await vi.waitFor(() => expect(events.slice(from).some((e) => e.type === 'settings')).toBe(true), HEARD);
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
      expect(approved).toEqual({ queued: 0, jobIds: [], credits: 0, unknownLength: 0 });

      // Events are throttled (a face refetches nothing: each carries the whole folder as it is now).
      await vi.waitFor(() => {
        const told = events.slice(from).filter((e) => e.type === 'watch-folder' && e.folder.id === added.id);
        expect(told.at(-1)).toMatchObject({ folder: { presetVersion: 2, preset: { creditLimit: 100 } } });
      }, HEARD);

      const removed = await api.removeWatchFolder({ id: added.id });
      plain('removeWatchFolder', removed);
      expect(removed).toEqual({ id: added.id });
      expect((await api.listWatchFolders()).folders).toEqual([]);
      await vi.waitFor(
        () =>
          expect(events.slice(from)).toContainEqual(
            expect.objectContaining({ type: 'watch-folder-removed', id: added.id }),
          ),
        HEARD,
      );
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

    // Last: the jobs it adds would change the totals the tests above count.
    againTests(() => ({ sb, h, api, events }));
    trackTests(() => ({ sb, h, api, events }));

    it('an unsubscribed listener hears nothing more', async () => {
      const heard: EngineEvent[] = [];
      const stop = api.subscribe((e) => heard.push(e));
      stop();
      const from = events.length;
      await api.pauseQueue();
      await api.resumeQueue();
      // Events reach listeners in order: once the suite's own listener hears this one, so would the other.
      await api.setSettings({ favouriteLanguages: ['ja'] });
      await vi.waitFor(() => expect(events.slice(from).some((e) => e.type === 'settings')).toBe(true), HEARD);
      expect(heard).toEqual([]);
    });
  });
}

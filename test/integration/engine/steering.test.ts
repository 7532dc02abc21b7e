import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../shared/contract/events';
import { DubdeskError } from '../../../shared/contract/errors';
import { loopTurns } from '../../../electron/engine/runner/idle';
import { allJobs, engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { closedWindow, steeringWorld } from '../../helpers/steering';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { addFolder, filesOf, running, waitFor, watchEngine } from '../../helpers/watch';

const { cleanup, sandbox } = steeringWorld();

describe('the sending window', () => {
  it('keeps queued work waiting outside it, losing nothing, and sends it once it is open', async () => {
    const sb = await sandbox();
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    await host.api.setSettings({ sendWindow: closedWindow() });
    await host.api.add({ inputs: [videoMp4(1, 'night.mp4')], to: ['es'], outDir: tempDir() });
    const from0 = loopTurns.runner;
    const run = running(host);
    cleanup.push(() => run.stop());
    // The worker has looked at the queue with the job due (then it sleeps until the window opens): nothing
    // was sent.
    await waitFor(
      'the worker to look',
      () => loopTurns.runner,
      (n) => n > from0,
    );
    await waitFor(
      'the totals to say it runs',
      () => host.api.totals(),
      (t) => t.running,
    );
    expect(sb.state.dubs.size).toBe(0);
    expect((await allJobs(host.api)).map((j) => j.state)).toEqual(['queued']);
    // Opened (the settings wake the worker): the job goes.
    await host.api.setSettings({ sendWindow: null });
    await waitFor(
      'the job to complete',
      () => allJobs(host.api),
      (jobs) => jobs[0]?.state === 'completed',
    );
    expect(sb.state.dubs.size).toBe(1);
  });
});

describe('the monthly budget', () => {
  it('the estimate says a batch is past it, add refuses it unless forced', async () => {
    const sb = await sandbox();
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const api = host.api;
    await api.setSettings({ monthlyBudget: 5 });
    const request = { inputs: [videoMp4(3, 'budget.mp4')], to: ['es', 'fr'], outDir: tempDir() };
    const estimate = await api.estimate(request);
    expect(estimate).toMatchObject({ overBudget: true, budgetLeft: 5 });
    const refused = await api.add(request).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DubdeskError);
    expect((refused as DubdeskError).code).toBe('credits');
    expect((refused as DubdeskError).message).toMatch(/past the monthly budget of 5/);
    expect(await allJobs(api)).toEqual([]);
    const forced = await api.add({ ...request, force: true });
    expect(forced.added).toHaveLength(2);
    const spending = await api.spending({ since: null });
    expect(spending.budget).toMatchObject({ credits: 5, spentThisMonth: 0, committed: 6 });
  });

  it('a watched folder holds new files for approval past it', async () => {
    const sb = await sandbox();
    const host = watchEngine(sb);
    cleanup.push(() => host.close());
    const api = host.api;
    await api.setSettings({ monthlyBudget: 2 });
    const run = running(host);
    cleanup.push(() => run.stop());
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, {});
    await copyFile(audioMp3(3, 'budget-watch.mp3'), join(dir, 'budget.mp3'));
    const held = await waitFor(
      'the file to await approval',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'awaiting-approval',
    );
    expect(held[0]?.problem?.message).toMatch(/past the monthly budget of 2/);
    expect(await allJobs(api)).toEqual([]);
  });
});

describe('named presets', () => {
  it('are told to every face as they change, one per name whatever its case, checked as add checks', async () => {
    const sb = await sandbox();
    const home = tempDir();
    const host = engineFor(sb, home);
    cleanup.push(() => host.close());
    const events: EngineEvent[] = [];
    host.api.subscribe((e) => events.push(e));
    await host.api.savePreset({ name: 'ES+FR studio', options: { to: ['es', 'fr'], studio: true } });
    const told = events.filter((e) => e.type === 'presets');
    expect(told.at(-1)).toMatchObject({ presets: [{ name: 'ES+FR studio' }] });
    // The same name in another case replaces it: one preset per name.
    await host.api.savePreset({ name: 'es+fr STUDIO', options: { to: ['es'] } });
    expect((await host.api.listPresets()).presets.map((p) => [p.name, p.options.to])).toEqual([
      ['es+fr STUDIO', ['es']],
    ]);
    await expect(host.api.deletePreset({ name: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(host.api.savePreset({ name: 'bad', options: { to: [] } })).rejects.toMatchObject({
      code: 'bad-request',
    });
    // A language the service does not dub into is refused as add refuses it, when saved, not when used.
    await expect(host.api.savePreset({ name: 'bad', options: { to: ['de', 'zz'] } })).rejects.toMatchObject({
      code: 'bad-language',
      message: expect.stringMatching(/'zz'/),
    });
    expect((await host.api.listPresets()).presets.map((p) => p.name)).toEqual(['es+fr STUDIO']);
  });
});

describe('the queue order', () => {
  it('moves before another job, and survives the engine closing and opening again', async () => {
    const sb = await sandbox();
    const home = tempDir();
    let host = engineFor(sb, home);
    await host.api.pauseQueue();
    const files = ['o-a.mp4', 'o-b.mp4', 'o-c.mp4'].map((n, i) => videoMp4(i + 1, n));
    await host.api.add({ inputs: files, to: ['es'], outDir: tempDir() });
    const [a, b, c] = await allJobs(host.api);
    const r = await host.api.moveJobs({ ids: [c?.id ?? 0], to: { before: b?.id ?? 0 } });
    expect(r).toEqual({ moved: [c?.id], stayed: [], missing: [] });
    await host.close();
    host = engineFor(sb, home);
    cleanup.push(() => host.close());
    const page = await host.api.listSources({ filter: {}, offset: 0, limit: 10 });
    expect(page.sources.map((s) => s.jobs[0]?.id)).toEqual([a?.id, c?.id, b?.id]);
    await host.api.resumeQueue();
    expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
    expect([...sb.state.dubs.values()].map((d) => d.name)).toEqual(['o-a.mp4', 'o-c.mp4', 'o-b.mp4']);
  });
});

import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../shared/contract/events';
import { loopTurns } from '../../../electron/engine/runner/idle';
import type { Sandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { closedWindow, steeringWorld } from '../../helpers/steering';
import { videoMp4 } from '../../helpers/media';
import { running, waitFor } from '../../helpers/watch';

/*
 * What one process steers reaches another on the same data folder through the database's change feed
 * (a window open while a terminal saves a preset, a run in a terminal while the window's Settings change).
 * Two engines on one home are two connections: each hears the other's commits as a foreign commit.
 */

const { cleanup, sandbox } = steeringWorld();

function twoEngines(sb: Sandbox) {
  const home = tempDir();
  const here = engineFor(sb, home);
  const elsewhere = engineFor(sb, home);
  cleanup.push(
    () => here.close(),
    () => elsewhere.close(),
  );
  return { here, elsewhere };
}

describe('steering heard across processes', () => {
  it("a preset saved or deleted by another process reaches this one's faces", async () => {
    const { here, elsewhere } = twoEngines(await sandbox());
    const events: EngineEvent[] = [];
    here.api.subscribe((e) => events.push(e));
    await elsewhere.api.savePreset({ name: 'euro', options: { to: ['de', 'it'], studio: true } });
    await waitFor(
      'the preset to be told here',
      () => events.filter((e) => e.type === 'presets').at(-1),
      (e) => e?.type === 'presets' && e.presets.some((p) => p.name === 'euro'),
    );
    await elsewhere.api.deletePreset({ name: 'EURO' });
    await waitFor(
      'the deletion to be told here',
      () => events.filter((e) => e.type === 'presets').at(-1),
      (e) => e?.type === 'presets' && e.presets.length === 0,
    );
  });

  it("a run here follows the sending window another process's settings open", async () => {
    const sb = await sandbox();
    const { here, elsewhere } = twoEngines(sb);
    await elsewhere.api.setSettings({ sendWindow: closedWindow() });
    await here.api.add({ inputs: [videoMp4(1, 'window.mp4')], to: ['es'], outDir: tempDir() });
    const from0 = loopTurns.runner;
    const run = running(here);
    cleanup.push(() => run.stop());
    await waitFor(
      'the worker to look',
      () => loopTurns.runner,
      (n) => n > from0,
    );
    await waitFor(
      'the totals to say it runs',
      () => here.api.totals(),
      (t) => t.running,
    );
    expect(sb.state.dubs.size).toBe(0);
    // Another process (the window's Settings) opens it: the run here hears it, nothing is waited out.
    await elsewhere.api.setSettings({ sendWindow: null });
    await waitFor(
      'the job to complete',
      () => allJobs(here.api),
      (jobs) => jobs[0]?.state === 'completed',
    );
    expect(sb.state.dubs.size).toBe(1);
  });
});

describe('batches in the spending report', () => {
  it('each add is one batch: its charges share a number, the next add has another', async () => {
    const sb = await sandbox();
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const out = tempDir();
    const first = await host.api.add({ inputs: [videoMp4(1, 'b1.mp4')], to: ['es', 'fr'], outDir: out });
    const second = await host.api.add({ inputs: [videoMp4(2, 'b2.mp4')], to: ['es'], outDir: out });
    expect(await host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 })).toBe('done');
    const { rows } = await host.api.spending({ since: null });
    const batchOf = new Map(rows.map((r) => [r.jobId, r.batch]));
    const [a, b] = first.added;
    const [c] = second.added;
    expect(rows).toHaveLength(3);
    expect(batchOf.get(a ?? 0)).not.toBeNull();
    expect(batchOf.get(a ?? 0)).toBe(batchOf.get(b ?? 0));
    expect(batchOf.get(c ?? 0)).not.toBeNull();
    expect(batchOf.get(c ?? 0)).not.toBe(batchOf.get(a ?? 0));
  });
});

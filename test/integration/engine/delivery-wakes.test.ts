/**
 * The deliveries (QC, SubRip, packages) tell the runner when they are idle, not at every QC that ends: a
 * QC that ends while another runs or is due changes nothing the runner's loop looks at, and each wake is a
 * turn of that loop (its reads, its claims). Counted: four QCs, two at a time, wake it once.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Deliveries } from '../../../electron/engine/runner/deliveries';
import { audioPathStaging } from '../../../electron/engine/runner/recover';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { audioMp3 } from '../../helpers/media';
import { storeAt } from '../../helpers/store';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

const JOBS = 4;

describe("the deliveries' wake of the runner", () => {
  it('comes once the last QC ended and nothing is due, not at every QC', async () => {
    const work = tempDir('dubdesk-delivery-wakes-');
    const home = join(work, 'home');
    const clip = audioMp3(1, 'delivery-wakes.mp3');
    const files = Array.from({ length: JOBS }, (_, i) => {
      const file = join(work, `talk-${i}.mp3`);
      copyFileSync(clip, file);
      // Each its own content: copies of one file would be dubbed once and linked.
      writeFileSync(file, `TAGdelivery-wakes ${i}`, { flag: 'a' });
      return file;
    });
    const host = engineFor(sb, home);
    try {
      const added = await host.api.add({ inputs: files, to: ['es'] });
      expect(added.added).toHaveLength(JOBS);
      expect(await host.run(quickRun(2))).toBe('done');
    } finally {
      await host.close();
    }

    // The dubs' QCs to do again, by deliveries of their own.
    const store = storeAt(join(home, 'dubdesk.db'));
    try {
      expect(store.db.prepare(`UPDATE jobs SET qc = NULL WHERE state = 'completed'`).run().changes).toBe(
        JOBS,
      );
      const deliveries = new Deliveries({
        store,
        tools: async () => null,
        warn: () => {},
        stagingDir: audioPathStaging(home),
      });
      const woken: { idle: boolean; qcLeft: number }[] = [];
      const qcLeft = () =>
        Number(store.db.prepare(`SELECT count(*) FROM jobs WHERE qc IS NULL`).pluck().get());
      deliveries.onIdle = () => woken.push({ idle: deliveries.idle, qcLeft: qcLeft() });
      deliveries.look();
      await vi.waitFor(
        () => expect({ left: qcLeft(), idle: deliveries.idle }).toEqual({ left: 0, idle: true }),
        {
          timeout: 20_000,
          interval: 20,
        },
      );
      await deliveries.stop();
      expect(woken).toEqual([{ idle: true, qcLeft: 0 }]);
    } finally {
      store.db.close();
    }
  });
});

/**
 * QC runs its ffmpeg in the engine's tool host. A host killed under it says nothing about the dub: the QC
 * is not recorded as "could not be checked" but done again (with a new host), and nothing is charged again.
 * The real engine, the real sandbox, a ten-minute recording so the kill lands while ffmpeg measures it.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { toolHostPid } from '../../../electron/media-tools/tool-host';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { audioMp3 } from '../../helpers/media';
import { ffmpegsUnder, parentOf } from '../../helpers/processes';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  // The dub is a copy of the upload (no ffmpeg of the service's own): QC measures it as any dub, and the
  // service's transcoding of ten minutes is not what this test watches.
  sb = await startSandbox({ pipelineSeconds: 0.3, ffmpeg: false });
});
afterAll(() => sb.stop());

describe.skipIf(process.platform === 'win32')(
  'the tool host killed during QC (skipped on Windows: no ps)',
  () => {
    it('the check is done again, not recorded as unchecked; one charge', async () => {
      const work = tempDir('dubdesk-tool-host-qc-');
      const source = join(work, 'entretien long é.mp3');
      copyFileSync(audioMp3(600, 'tool-host-qc.mp3'), source);
      const engine = engineFor(sb, join(work, 'home'));
      try {
        await engine.api.add({ inputs: [source], to: ['es'], send: 'file' });
        const running = engine.run(quickRun());
        const measuring = await vi.waitFor(
          () => {
            const [tool] = ffmpegsUnder(work).filter((t) => t.args.includes('ebur128'));
            if (!tool) throw new Error('QC has not started its ffmpeg yet');
            return tool;
          },
          { timeout: 120_000, interval: 20 },
        );
        const host = toolHostPid();
        expect(parentOf(measuring.pid)).toBe(host);
        process.kill(host ?? 0, 'SIGKILL');

        expect(await running).toBe('done');
        expect(toolHostPid()).not.toBe(host);
        const [job] = await allJobs(engine.api);
        expect(job?.state).toBe('completed');
        expect(job?.qc?.problems.map((p) => p.code)).not.toContain('unchecked');
        expect(job?.qc?.loudness.integrated).toEqual(expect.any(Number));
        // The kill landed on the source's pass (QC's first): its facts were measured again, not given up.
        expect(job?.qc?.loudness.source).toEqual(expect.any(Number));
        expect(sb.state.ledger).toHaveLength(1);
      } finally {
        await engine.close();
      }
    }, 300_000);
  },
);

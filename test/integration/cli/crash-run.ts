import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../electron/sandbox/faults';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox | undefined;

/**
 * Kills per scenario. Six scenarios of six kills are 36 kill-and-resume cycles a run, each kill at a seeded
 * moment; twelve each made this the suite's slowest file (114 s of a 537 s tier).
 */
const KILLS = 6;

export type CrashCase = readonly ['v2' | 'v1' | 'legacy', number, boolean, 'default' | 'all'];

/** The kill -9 scenarios, in two files so the tier's workers run them side by side. */
export function describeCrashes(cases: readonly CrashCase[]): void {
  afterEach(async () => {
    await sb?.stop();
    sb = undefined;
  });
  describe.each(cases)(
    'kill -9 at random moments (%s, seed %i, upload once: %s, outputs: %s)',
    (api, seed, once, outputs) => {
      it('every restart resumes; in the end each job has exactly one dub, charged once, and its files', async () => {
        // Latency and lost responses widen the windows where a kill hurts most (between a call and its record).
        const s = await startSandbox({
          pipelineSeconds: 1.5,
          // The shared per-source outputs (poster, audio) are the service's media work; the default outputs
          // are copies of the upload, which is all a kill between a call and its record needs.
          ffmpeg: outputs === 'all',
          seed,
          faults: { latencyMs: 15, rateLostResponse: 0.1 },
        });
        sb = s;
        const work = tempDir('dubdesk-crash-');
        const env = envFor(s, join(work, 'home'));
        const out = join(work, 'out');
        const files =
          api === 'legacy'
            ? [videoMp4(2, 'k-a.mp4'), videoMp4(3, 'k-b.mp4')]
            : [videoMp4(2, 'k-a.mp4'), audioMp3(2, 'k-b.mp3'), videoMp4(3, 'k-c.mp4')];
        const langs = once ? 'es,fr,de' : 'es,fr';
        const onceFlag = once ? ['--upload-once'] : [];
        const outputsFlag = outputs === 'all' ? ['--outputs', 'all'] : [];
        const added = await runCli(
          ['add', ...files, '--to', langs, '--api', api, '--out', out, ...onceFlag, ...outputsFlag],
          env,
        );
        expect(added.code, added.stderr).toBe(0);

        const random = mulberry32(seed); // seeded, so a failing sequence of kills can be replayed
        let kills = 0;
        for (let i = 0; i < KILLS; i++) {
          const { child, done } = startCli(
            ['run', '--until-done', '--poll-interval', '0.1', '--concurrency', '2'],
            env,
          );
          // Kill right after the k-th progress line (a state change: mid-upload, just after a create, mid-download…),
          // or after a random delay, whichever comes first.
          const afterLines = 1 + Math.floor(random() * 8);
          const timer = setTimeout(() => child.kill('SIGKILL'), 400 + Math.floor(random() * 2000));
          let lines = 0;
          child.stderr?.on('data', (d: Buffer) => {
            lines += d.toString().split('\n').length - 1;
            if (lines >= afterLines) child.kill('SIGKILL');
          });
          const r = await done;
          clearTimeout(timer);
          if (r.signal === 'SIGKILL') kills++;
          else {
            expect(r.code, r.stderr).toBe(0);
            break;
          }
        }
        const final = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
        expect(final.code, final.stderr).toBe(0);
        expect(kills).toBeGreaterThan(0);

        const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
          jobs: { state: string; remoteId: string; outputs: { type: string; path: string }[] }[];
        };
        expect(status.jobs.map((j) => j.state)).toEqual(status.jobs.map(() => 'completed'));
        const started = startedDubs(s);
        expect(started).toHaveLength(status.jobs.length);
        expect(new Set(status.jobs.map((j) => j.remoteId))).toEqual(new Set(started.map((d) => d.id)));
        expect(s.state.ledger.map((c) => c.dubId).sort()).toEqual(started.map((d) => d.id).sort());
        for (const job of status.jobs) {
          if (outputs === 'default') expect(job.outputs).toHaveLength(2);
          else expect(job.outputs.length).toBeGreaterThan(4);
          const dub = s.state.dubs.get(job.remoteId);
          for (const o of job.outputs) {
            const served = await readFile(dub?.artifacts?.[o.type as 'translated_subtitle']?.path ?? '');
            expect((await readFile(o.path)).equals(served), o.path).toBe(true);
          }
        }
        if (once) {
          // Dubs made from the service's copy, each recorded as such; never more uploads than jobs.
          expect(s.state.ingest.createsFromOwnLink).toBeGreaterThan(0);
          expect(s.state.ingest.createsFromFile + s.state.ingest.createsFromOwnLink).toBeGreaterThanOrEqual(
            status.jobs.length,
          );
        }
        const left = (await readdir(out)).filter((f) => f.endsWith('.part') || / \(\d+\)\./.test(f));
        expect(left).toEqual([]);
        // Every file in the folder is one a job recorded: nothing half-made or forgotten beside them.
        const recorded = new Set(status.jobs.flatMap((j) => j.outputs.map((o) => o.path)));
        expect((await readdir(out)).map((f) => join(out, f)).filter((f) => !recorded.has(f))).toEqual([]);
      }, 180_000); // up to 7 runs of the CLI, each downloading every output
    },
  );
}

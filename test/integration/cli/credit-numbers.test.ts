/**
 * The credits the CLI prints add up (issue 31, items 3 and 4): the balance a `run` or `dub` ends with is the
 * service's after the batch's charges, and after a restart the charges the service made while nothing ran
 * are not counted again as committed. "The balance after the queue" (balance − committed) is what the user
 * reads; with estimates equal to charges it stays what it was when the batch was added. MP3s: the sandbox
 * without ffmpeg measures them as the engine probes them (an MP4's AAC priming makes it bill a second more).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { DubJson, EstimateJson, RunJson, StatusJson } from '../../../electron/cli/json-shapes';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';

const START = 3600;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 1, balance: START });
});
afterAll(() => sb.stop());

/** What the sandbox says the account holds now (the same as `dubdesk me`). */
const serviceBalance = () => sb.account.seconds;
const chargesMade = () => sb.state.ledger.filter((c) => c.userId === sb.account.id).length;

/** What `estimate` says the files cost: the sandbox charges the same (it measures what the engine probes). */
async function estimateOf(files: string[], to: string, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const r = await runCli(['estimate', ...files, '--to', to, '--json'], env, cwd);
  return EstimateJson.parse(JSON.parse(r.stdout)).credits;
}

describe('the balance a batch ends with', () => {
  // Six CLI processes one after the other: on a loaded machine that is more than the default minute.
  it(
    'dub --json and run --json end with the balance read after the last charge',
    { timeout: 180_000 },
    async () => {
      const work = tempDir('dubdesk-final-balance-');
      const env = envFor(sb, join(work, 'home'));
      // One upload at a time: the dubs complete a little apart, each charge soon after the one before.
      const files = [audioMp3(2.5, 'fb-a.mp3'), audioMp3(3.5, 'fb-b.mp3'), audioMp3(4.5, 'fb-c.mp3')];
      const before = serviceBalance();
      const cost = await estimateOf(files, 'es', env, work);
      const dub = await runCli(
        [
          'dub',
          ...files,
          '--to',
          'es',
          '--out',
          'out',
          '--concurrency',
          '1',
          '--poll-interval',
          '0.05',
          '--json',
        ],
        env,
        work,
      );
      expect(dub.code, dub.stderr).toBe(0);
      const d = DubJson.parse(JSON.parse(dub.stdout));
      expect(d.run?.tally.creditsCharged).toBe(cost);
      expect(serviceBalance()).toBe(before - cost);
      expect(d.run?.queue.balance).toBe(serviceBalance());
      expect(d.run?.queue.creditsCommitted).toBe(0);

      const more = [audioMp3(2.5, 'fb-d.mp3'), audioMp3(3.5, 'fb-e.mp3')];
      const moreCost = await estimateOf(more, 'es,fr', env, work);
      expect((await runCli(['add', ...more, '--to', 'es,fr', '--out', 'out'], env, work)).code).toBe(0);
      const run = await runCli(
        ['run', '--until-done', '--concurrency', '1', '--poll-interval', '0.05', '--json'],
        env,
        work,
      );
      expect(run.code, run.stderr).toBe(0);
      const r = RunJson.parse(JSON.parse(run.stdout));
      expect(r.tally.creditsCharged).toBe(moreCost);
      expect(r.queue.balance).toBe(serviceBalance());
      expect(r.queue.balance).toBe(before - cost - moreCost);
    },
  );
});

describe('the numbers across a restart', () => {
  it(
    'status after the service charged while nothing ran: nothing committed twice',
    { timeout: 180_000 },
    async () => {
      const work = tempDir('dubdesk-restart-credits-');
      const env = envFor(sb, join(work, 'home'));
      const files = [audioMp3(2.5, 'rs-a.mp3'), audioMp3(3.5, 'rs-b.mp3')];
      const estimate = await estimateOf(files, 'es,fr', env, work);
      const added = await runCli(['add', ...files, '--to', 'es,fr', '--out', 'out', '--json'], env, work);
      expect(added.code, added.stderr).toBe(0);
      const start = serviceBalance();
      const first = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env, work)).stdout));
      expect(first.queue.balance).toBe(start);
      expect(first.queue.creditsCommitted).toBe(estimate);

      // A run stopped once every dub is at the service: the service goes on and charges them all.
      const dubsBefore = sb.state.dubs.size;
      // Counted before the run: a dub may complete before Ctrl+C has stopped it.
      const chargedBefore = chargesMade();
      const { child, done } = startCli(['run', '--poll-interval', '5'], env, work);
      await vi.waitFor(() => expect(sb.state.dubs.size).toBe(dubsBefore + 4), { timeout: 30_000 });
      child.kill('SIGINT');
      expect((await done).code).toBe(130);
      await vi.waitFor(() => expect(chargesMade()).toBe(chargedBefore + 4), { timeout: 30_000 });

      const after = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env, work)).stdout));
      expect(after.queue.balance).toBe(start - estimate);
      // What the user reads: what is left once the queue is through, the same before and after.
      expect((after.queue.balance ?? NaN) - after.queue.creditsCommitted).toBe(start - estimate);
      expect(after.queue.creditsCommitted).toBe(0);
      const human = await runCli(['status'], env, work);
      expect(human.stdout).toContain(
        `Credits: balance ${(start - estimate).toLocaleString('en-US')}, 0 committed to jobs not yet charged.`,
      );

      const run = await runCli(['run', '--until-done', '--poll-interval', '0.05', '--json'], env, work);
      const r = RunJson.parse(JSON.parse(run.stdout));
      expect(r.queue).toMatchObject({ balance: start - estimate, creditsCommitted: 0 });
      expect(r.tally.creditsCharged).toBe(estimate);
    },
  );
});

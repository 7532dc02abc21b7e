import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { fakeService } from '../../helpers/fake-service';
import { videoMp4 } from '../../helpers/media';

interface StatusJob {
  state: string;
  remoteId: string | null;
}

const status = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: StatusJob[] }).jobs;

/** Runs `then` once stderr has shown `pattern` (at most once). */
function onStderr(child: ReturnType<typeof startCli>['child'], pattern: RegExp, then: () => void) {
  let seen = '';
  let fired = false;
  child.stderr?.on('data', (d: Buffer) => {
    seen += d.toString();
    if (!fired && pattern.test(seen)) {
      fired = true;
      then();
    }
  });
}

/** Sends SIGINT once stderr has shown `pattern`, then runs `then` (at most once each). */
function interruptOn(child: ReturnType<typeof startCli>['child'], pattern: RegExp, then?: () => void) {
  onStderr(child, pattern, () => {
    child.kill('SIGINT');
    then?.();
  });
}

describe('Ctrl+C in dubdesk run', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 30 });
  });
  afterEach(() => sb.stop());

  async function queued(name: string): Promise<NodeJS.ProcessEnv> {
    const work = tempDir('dubdesk-interrupt-');
    const env = envFor(sb, join(work, 'home'));
    const added = await runCli(['add', videoMp4(2, name), '--to', 'es', '--out', join(work, 'out')], env);
    expect(added.code, added.stderr).toBe(0);
    return env;
  }

  it('once: the upload in flight finishes and its dub is recorded, then the run stops (exit 130)', async () => {
    const env = await queued('drain-me.mp4');
    // The create's answer is held: Ctrl+C comes while the request is at the service, not before it leaves
    // (a press before the create stops the job with nothing sent, which is right too, and not this case).
    sb.setFaults({ holdCreates: true });
    const { child, done } = startCli(['run', '--until-done', '--poll-interval', '0.2'], env);
    await vi.waitFor(() => expect(sb.faults.held.creates.now).toBe(1), { timeout: 30_000 });
    child.kill('SIGINT');
    onStderr(child, /Finishing the current step/, () => sb.setFaults({ holdCreates: false }));
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('Finishing the current step');
    const [job] = await status(env);
    // Cut short, the create would have been thrown away: the job would be queued with no dub.
    expect(job?.remoteId).toBeTruthy();
    expect(job?.state).not.toBe('queued');
    expect(sb.state.dubs.size).toBe(1);
  });

  it('twice: the second press stops at once, whatever is in flight; the job is queued again', async () => {
    // A service whose create never answers: only the second press can end this run. The first press comes
    // once the service holds the whole create (a press while the file is still going out stops that upload).
    let held = () => {};
    const service = await fakeService({
      create: () => {
        held();
        return true;
      },
    });
    try {
      const work = tempDir('dubdesk-interrupt-');
      const env = {
        ...process.env,
        DUBDESK_HOME: join(work, 'home'),
        DUBDESK_BASE_URL: service.url,
        DUBDESK_API_KEY: 'k',
      };
      const added = await runCli(['add', videoMp4(2, 'cut-me.mp4'), '--to', 'es', '--out', 'out'], env, work);
      expect(added.code, added.stderr).toBe(0);
      const { child, done } = startCli(['run', '--until-done', '--poll-interval', '0.2'], env, work);
      held = () => {
        held = () => {};
        child.kill('SIGINT');
      };
      interruptOn(child, /Finishing the current step/);
      const r = await done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('Stopping now');
      const [job] = await status(env);
      expect(job?.state).toBe('queued');
      expect(job?.remoteId).toBeNull();
    } finally {
      await service.close();
    }
  });

  it('in dub, before the run has started (the service check is slow): nothing starts, exit 130', async () => {
    const work = tempDir('dubdesk-interrupt-');
    const env = envFor(sb, join(work, 'home'));
    sb.setFaults({ latencyMs: 3000 });
    const { child, done } = startCli(
      [
        'dub',
        videoMp4(2, 'early-stop.mp4'),
        '--to',
        'es',
        '--out',
        join(work, 'out'),
        '--poll-interval',
        '0.2',
      ],
      env,
    );
    interruptOn(child, /Queued 1 job/);
    const r = await done;
    sb.setFaults({ latencyMs: 0 });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('Finishing the current step');
    expect(sb.state.dubs.size).toBe(0);
    expect((await status(env)).map((j) => j.state)).toEqual(['queued']);
  });
});

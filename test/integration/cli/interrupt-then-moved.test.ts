/**
 * Ctrl+C twice while a create is at the service, then the source renamed (an accented name retyped in its
 * other Unicode form, a file tidied away): the service made and charged the dub all the same. The next run
 * must take that dub up, whatever became of the file it was made from, and the charge must show.
 */
import { copyFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

interface StatusJob {
  state: string;
  remoteId: string | null;
  creditsCharged: number | null;
}

const status = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: StatusJob[] }).jobs;

describe('a create cut off by Ctrl+C, its source renamed before the next run', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
  });
  afterEach(() => sb.stop());

  it('takes up the dub the service made, charged once, and the charge shows in spend', async () => {
    const work = tempDir('dubdesk-moved-');
    const env = envFor(sb, join(work, 'home'));
    const nfc = join(work, 'R\u00e9union n\u00b01.mp4');
    copyFileSync(videoMp4(2, 'moved-after-cut.mp4'), nfc);
    const added = await runCli(['add', nfc, '--to', 'es', '--send', 'file', '--out', join(work, 'out')], env);
    expect(added.code, added.stderr).toBe(0);

    sb.setFaults({ holdCreates: true });
    const { child, done } = startCli(['run', '--until-done', '--poll-interval', '0.2'], env);
    await vi.waitFor(() => expect(sb.faults.held.creates.now).toBe(1), { timeout: 30_000 });
    // Twice: the first press drains (the create held at the service would be waited for), the second stops
    // at once. It goes once the first was heard: two signals sent together are one to the process.
    let said = '';
    let pressedAgain = false;
    child.stderr?.on('data', (d: Buffer) => {
      said += d.toString();
      if (pressedAgain || !said.includes('Finishing the current step')) return;
      pressedAgain = true;
      child.kill('SIGINT');
    });
    child.kill('SIGINT');
    expect((await done).code).toBe(130);
    sb.setFaults({ holdCreates: false });
    await vi.waitFor(() => expect(sb.state.ledger.length + sb.state.dubs.size).toBeGreaterThan(0), {
      timeout: 30_000,
    });

    renameSync(nfc, nfc.normalize('NFD'));
    const r = await runCli(['run', '--until-done', '--poll-interval', '0.2'], env);
    expect(r.stderr).not.toMatch(/gone since it was added/);
    const [job] = await status(env);
    expect(sb.state.dubs.size).toBe(1);
    expect(job?.state).toBe('completed');
    const charged = sb.state.ledger.reduce((n, c) => n + c.seconds, 0);
    expect(job?.creditsCharged).toBe(charged);
    const spend = JSON.parse((await runCli(['spend', '--json'], env)).stdout) as { total: number };
    expect(spend.total).toBe(charged);
  });
});

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4, videoWebm } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** The seconds of dubbing the sandbox's account has left: what a charge takes away. */
const balance = () => sb.account.seconds;

describe('--package mp4 of a picture an MP4 cannot hold (VP8)', () => {
  it('is refused before anything is sent or paid, saying to use --package mkv; the other files of the batch go ahead', async () => {
    const work = tempDir('dubdesk-vp8-');
    const webm = join(work, 'clip vidéo.webm');
    copyFileSync(videoWebm(2, 'vp8-source.webm'), webm);
    const env = envFor(sb, join(work, 'home'));
    const before = balance();
    expect(before).toBeGreaterThan(0);
    const alone = await runCli(
      ['dub', webm, '--to', 'es', '--package', 'mp4', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(alone.code, alone.stderr).toBe(2);
    expect(alone.stderr).toContain(`${webm} cannot be packaged as MP4: its picture is vp8`);
    expect(alone.stderr).toContain('--package mkv');
    expect(balance()).toBe(before);
    const status = await runCli(['status', '--json'], env);
    expect((JSON.parse(status.stdout) as { jobs: unknown[] }).jobs).toHaveLength(0);

    // In a batch, the VP8 file is skipped with its fix; the H.264 one is dubbed and packaged as asked.
    const mp4 = join(work, 'talk.mp4');
    copyFileSync(videoMp4(2, 'h264-source.mp4'), mp4);
    const mixed = await runCli(['add', webm, mp4, '--to', 'es', '--package', 'mp4'], env, work);
    expect(mixed.code, mixed.stderr).toBe(1);
    expect(mixed.stderr).toMatch(/^skipped: .*clip vidéo\.webm cannot be packaged as MP4.*--package mkv/m);
    expect(mixed.stderr).toContain('Queued 1 job');
  });

  it('dubdesk package --format mp4 of it names the option that packages it as MKV', async () => {
    const work = tempDir('dubdesk-vp8-now-');
    const webm = join(work, 'écran.webm');
    copyFileSync(videoWebm(2, 'vp8-now.webm'), webm);
    const env = envFor(sb, join(work, 'home'));
    const dubbed = await runCli(['dub', webm, '--to', 'es', '--poll-interval', '0.1'], env, work);
    expect(dubbed.code, dubbed.stderr).toBe(0);
    const packaged = await runCli(['package', webm, '--format', 'mp4'], env);
    expect(packaged.stderr).not.toMatch(/\n\s+at /);
    expect(packaged.stderr).toContain(`${webm} cannot be packaged as MP4: its picture is vp8`);
    expect(packaged.stderr).toContain('dubdesk package --format mkv');
    expect(packaged.stderr).not.toContain('--package mkv');
    expect(packaged.code, packaged.stderr).toBe(1);
  });
});

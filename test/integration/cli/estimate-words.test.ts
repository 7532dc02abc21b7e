/**
 * What `dubdesk estimate` says about a batch is true of that batch (issue 31.5 and 31.8): a length is the
 * one billed (4.23 s costs 5 credits a language and reads 0:05, not 0:04), and "uploaded once" says how many
 * of the batch's files are, not "each file" when one of two is.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { EstimateJson } from '../../../electron/cli/json-shapes';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3, videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

const MiB = 1024 * 1024;

describe('dubdesk estimate, in words', () => {
  it('shows the length that is billed: 4.23 s reads 0:05 and costs 5 a language', async () => {
    const work = tempDir('dubdesk-est-length-');
    const file = audioMp3(4.2, 'billed.mp3');
    const r = await runCli(['estimate', file, '--to', 'es,fr'], envFor(sb, join(work, 'home')), work);
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.includes('billed.mp3'));
    expect(row).toMatch(/billed\.mp3\s+0:05\s+10$/);
    expect(r.stdout).toContain('about 10 credits');
  });

  it('says how many of the batch files are uploaded once, not "each file" when one of two is', async () => {
    const work = tempDir('dubdesk-est-once-');
    const env = envFor(sb, join(work, 'home'));
    // A real MP4 header with a long tail of zeros: probed as a 60 MiB video, never read whole.
    const big = join(work, 'big.mp4');
    await copyFile(videoMp4(2), big);
    await truncate(big, 60 * MiB);
    const small = videoMp4(3, 'small.mp4');
    const text = await runCli(['estimate', big, small, '--to', 'es,fr'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '\nUpload once: 1 of 2 files is uploaded once for all its languages, 60 MiB less to send; the other is uploaded for each language.',
    );
    const json = await runCli(['estimate', big, small, '--to', 'es,fr', '--json'], env);
    expect(EstimateJson.parse(JSON.parse(json.stdout)).uploadOnce).toEqual({
      enabled: true,
      bytesSaved: 60 * MiB,
      files: 1,
      outOf: 2,
    });

    const alone = await runCli(['estimate', big, '--to', 'es,fr,de'], env);
    expect(alone.stdout).toContain(
      '\nUpload once: the file is uploaded once for all its languages, 120 MiB less to send.',
    );
  });

  it('"instead of" is what the whole file would really send, upload once and all, as --send file says it', async () => {
    const work = tempDir('dubdesk-est-instead-');
    const env = envFor(sb, join(work, 'home'));
    const talk = join(work, 'talk.mp4');
    await copyFile(videoMp4(3, 'instead-of-talk.mp4'), talk);
    await truncate(talk, 60 * MiB);
    const six = ['estimate', talk, '--to', 'es,fr,de,it,pt,ja'];
    const whole = await runCli([...six, '--send', 'file'], env);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toContain(
      '\nSends 60 MiB (whole files).\nUpload once: the file is uploaded once for all its languages, 300 MiB less to send.',
    );
    const audio = await runCli([...six, '--send', 'audio'], env);
    expect(audio.code, audio.stderr).toBe(0);
    expect(audio.stdout).toMatch(/\nSends [\d.]+ KiB \(audio\) instead of 60 MiB\.\n/);
    const json = await runCli([...six, '--send', 'audio', '--json'], env);
    expect(EstimateJson.parse(JSON.parse(json.stdout)).sends).toMatchObject({
      wholeBytes: 60 * MiB,
      audioFiles: 1,
    });
  });
});

/**
 * `estimate` is what a person runs before `dub`, with the same line: `dubdesk estimate keynote.mp4 --to es,fr
 * --package mkv --subtitles vtt,srt` must answer, not stop at "unknown option '--package'", and say that
 * what is made here (the package, the SubRip subtitles) costs nothing.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

describe('dubdesk estimate with the delivery options of dub', () => {
  it('takes --package, --subtitles, --default-audio and --loudness, and says what is made here for free', async () => {
    const work = tempDir('dubdesk-est-deliver-');
    const env = envFor(sb, join(work, 'home'));
    const keynote = videoMp4(3, 'keynote.mp4');
    const args = ['estimate', keynote, '--to', 'es,fr', '--package', 'mkv', '--subtitles', 'vtt,srt'];
    const r = await runCli([...args, '--default-audio', 'es', '--loudness', 'web'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('about 6 credits');
    expect(r.stdout).toContain(
      '\nMade here at no charge: one MKV per file with every language (keynote.multi.mkv), SubRip subtitles (.srt) beside the WebVTT.',
    );
    const plain = await runCli(['estimate', keynote, '--to', 'es,fr'], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('Made here at no charge');
  });

  it('refuses a package format it does not make, as dub does', async () => {
    const work = tempDir('dubdesk-est-deliver-bad-');
    const r = await runCli(
      ['estimate', videoMp4(3, 'keynote.mp4'), '--to', 'es', '--package', 'avi'],
      envFor(sb, join(work, 'home')),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--package.*avi.*mkv, mp4, none/s);
  });
});

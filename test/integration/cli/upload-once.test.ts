import { copyFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

interface EstimateJson {
  uploadOnce: { enabled: boolean; bytesSaved: number; files: number; outOf: number };
}

describe('dubdesk --upload-once', () => {
  it('auto by default: on for a 50 MB file going to several languages; --no-upload-once turns it off', async () => {
    const work = tempDir('dubdesk-cli-once-');
    const env = envFor(sb, join(work, 'home'));
    // A real MP4 header with a long tail of zeros: probed like any 60 MB video, never read whole.
    const big = join(work, 'big.mp4');
    await copyFile(videoMp4(2), big);
    await truncate(big, 60 * 1024 * 1024);
    const estimate = async (...flags: string[]) => {
      const r = await runCli(['estimate', big, '--to', 'es,fr,de', '--json', ...flags], env);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as EstimateJson).uploadOnce;
    };
    expect(await estimate()).toEqual({ enabled: true, bytesSaved: 2 * 60 * 1024 * 1024, files: 1, outOf: 1 });
    expect(await estimate('--no-upload-once')).toEqual({ enabled: false, bytesSaved: 0, files: 0, outOf: 1 });
    const text = await runCli(['estimate', big, '--to', 'es,fr'], env);
    expect(text.stdout).toMatch(
      /Upload once: the file is uploaded once for all its languages, 60 MiB less to send/,
    );
  });

  it('dub --upload-once sends a small file once for three languages', async () => {
    const work = tempDir('dubdesk-cli-once-');
    const env = envFor(sb, join(work, 'home'));
    const file = videoMp4(2, 'cli-once.mp4');
    const before = { ...sb.state.ingest };
    const r = await runCli(
      [
        'dub',
        file,
        '--to',
        'es,fr,de',
        '--upload-once',
        '--out',
        join(work, 'out'),
        '--poll-interval',
        '0.1',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(sb.state.ingest.createsFromFile - before.createsFromFile).toBe(1);
    expect(sb.state.ingest.createsFromOwnLink - before.createsFromOwnLink).toBe(2);
    expect(sb.state.ingest.fileBytes - before.fileBytes).toBe((await stat(file)).size);
  });
});

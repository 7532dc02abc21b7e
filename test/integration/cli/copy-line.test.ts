/**
 * A byte copy under another name is linked from the dub already made, at no charge: `dub` says so on the
 * copy's own line, as `status` does, instead of a plain ✓ that reads like another paid dub.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.2, ffmpeg: false });
});
afterAll(() => sb.stop());

describe('dub of a copy', () => {
  it('says on its line that it was copied, from which file, at no charge', async () => {
    const work = tempDir();
    const env = envFor(sb, join(work, 'home'));
    const talk = join(work, 'talk.mp4');
    copyFileSync(videoMp4(2, 'copy-line.mp4'), talk);
    expect((await runCli(['dub', talk, '--to', 'es'], env)).code).toBe(0);
    const copy = join(work, 'talk copy.mp4');
    copyFileSync(talk, copy);
    const r = await runCli(['dub', copy, '--to', 'es'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      /^✓ #2 talk copy\.mp4 → es: copied from talk\.es\.mp4, no charge: .*talk copy\.es\.mp4/m,
    );
    expect(r.stderr).toContain('This batch: 1 completed, 0 failed. Credits charged: 0.');
  });
});

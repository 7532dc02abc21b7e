/**
 * A source deleted while it was being dubbed: the dub comes back, its package cannot be made. `dub` says so
 * and exits 1 (not everything asked for was done); `dub` and `dubdesk package` of the gone file then name it
 * as not there, with what to do, and exit 2 (no file could be packaged); put back, it is packaged at no charge.
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 1 });
});
afterAll(() => sb.stop());

describe('a package whose source was deleted', () => {
  it('makes dub exit 1, and dub and package of the gone file exit 2 saying it is not there', async () => {
    const work = tempDir('dubdesk-gone-source-');
    const kept = talkVideo(3);
    const source = join(work, 'gone two.mp4');
    copyFileSync(kept, source);
    const env = envFor(sb, join(work, 'home'));
    // The whole file is sent, so the dub needs no picture back here: only its package does.
    const args = [
      'dub',
      source,
      '--to',
      'es',
      '--package',
      'mkv',
      '--send',
      'file',
      '--poll-interval',
      '0.1',
    ];
    const { child, done } = startCli(args, env);
    let said = '';
    child.stderr?.on('data', (d: Buffer) => {
      said += d.toString();
      if (said.includes('→ es: dubbing')) rmSync(source, { force: true });
    });
    const dubbed = await done;
    expect(dubbed.stderr).not.toMatch(/\n\s+at /);
    expect(dubbed.stderr).toContain('This batch: 1 completed, 0 failed.');
    expect(dubbed.stderr).toContain(
      `✗ no package of gone two.mp4: its source ${source} is not there (moved, renamed, or on a drive that is not plugged in): put it back`,
    );
    expect(dubbed.code, dubbed.stderr).toBe(1);
    const charged = startedDubs(sb).length;

    const again = await runCli(args, env);
    expect(again.stderr).toContain(`skipped: ${source}: no such file.`);
    expect(again.code, again.stderr).toBe(2);

    const packaged = await runCli(['package', source], env);
    expect(packaged.stderr).not.toMatch(/\n\s+at |This batch|✓/);
    expect(packaged.stderr).toBe(
      `dubdesk package: no package of gone two.mp4: its source ${source} is not there (moved, renamed, or on a drive that is not plugged in): put it back, then \`dubdesk package\` it again or \`dubdesk run\` (no charge)\n`,
    );
    expect(packaged.code).toBe(2);

    // Put back: packaged, nothing dubbed or charged again.
    copyFileSync(kept, source);
    const back = await runCli(['package', source], env);
    expect(back.code, back.stderr).toBe(0);
    expect(existsSync(join(work, 'gone two.multi.mkv'))).toBe(true);
    expect(startedDubs(sb).length).toBe(charged);
  });
});

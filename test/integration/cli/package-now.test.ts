/**
 * `dubdesk package`: the terminal's "Package now". A batch dubbed without a package gets one later, made
 * here from what was downloaded: no dub is started again and nothing is charged.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { ffprobeJson } from '../../helpers/media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe('dubdesk package FILE', () => {
  it('packages the finished languages of a file dubbed without a package: no dub again, no charge', async () => {
    const work = join(tempDir('dubdesk-package-now-'), 'Réunion d’équipe');
    mkdirSync(work);
    const source = join(work, 'bilan annuel.mp4');
    copyFileSync(talkVideo(6), source);
    const env = envFor(sb, join(work, 'home'));
    const dubbed = await runCli(['dub', source, '--to', 'es,fr', '--poll-interval', '0.2'], env);
    expect(dubbed.code, dubbed.stderr).toBe(0);
    const packaged = join(work, 'bilan annuel.multi.mkv');
    expect(existsSync(packaged)).toBe(false);
    const dubsBefore = startedDubs(sb).length;
    const balanceBefore = sb.account.seconds;

    const r = await runCli(['package', source, '--format', 'mkv'], env);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Packaging .*bilan annuel\.mp4 as MKV: made here, nothing is charged/);
    expect(r.stderr).toContain(`package: ${packaged} (es, fr)`);
    // It speaks of the package alone: not of a batch of no dubs and no charge, nor of dubs done before.
    expect(r.stderr).not.toMatch(/This batch|Credits charged|✓ #/);
    expect(existsSync(packaged)).toBe(true);
    const audio = ffprobeJson(packaged).streams.filter((s) => s.codec_type === 'audio');
    expect(audio).toHaveLength(3);
    expect(startedDubs(sb).length).toBe(dubsBefore);
    expect(sb.account.seconds).toBe(balanceBefore);
  });

  it('names a file with no finished dub, and what to do (exit 2)', async () => {
    const work = tempDir('dubdesk-package-none-');
    const r = await runCli(['package', join(work, 'jamais doublé.mp4')], envFor(sb, join(work, 'home')));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/dubdesk package: no finished dub of .*jamais doublé\.mp4 to package/);
  });
});

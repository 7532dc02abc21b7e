/**
 * A package that failed for another reason than room (its source on a drive that was unplugged) is made by
 * the next `dubdesk run` once the source is back: the user fixes the cause and runs again, as for anything
 * else in the queue. Nothing is dubbed or charged again.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
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

describe('a package that failed for another reason than room', () => {
  it('is made by the next `dubdesk run` once its cause is gone, at no charge', async () => {
    const work = tempDir('dubdesk-package-retry-');
    const drive = join(work, 'Clé USB');
    mkdirSync(drive);
    const source = join(drive, 'Entretien n°2.mp4');
    copyFileSync(talkVideo(3), source);
    const out = join(work, 'Doublages');
    const env = envFor(sb, join(work, 'home'));
    const dubbed = await runCli(['dub', source, '--to', 'es', '--out', out, '--poll-interval', '0.1'], env);
    expect(dubbed.code, dubbed.stderr).toBe(0);
    const dubs = startedDubs(sb).length;
    const balance = sb.account.seconds;

    // The drive is unplugged: the package has no picture to take.
    const unplugged = join(work, 'elsewhere');
    renameSync(drive, unplugged);
    const refused = await runCli(['package', source], env);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(refused.stderr).toContain(
      `dubdesk package: no package of Entretien n°2.mp4: its source ${source} is not there (moved, renamed, or on a drive that is not plugged in): put it back, then \`dubdesk package\` it again or \`dubdesk run\` (no charge)`,
    );
    // No file could be packaged: exit 2, as docs/cli.md's table says.
    expect(refused.code).toBe(2);
    const pkg = join(out, 'Entretien n°2.multi.mkv');
    expect(existsSync(pkg)).toBe(false);

    // Plugged back in: the next run makes it.
    renameSync(unplugged, drive);
    const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(r.stderr).not.toMatch(/✗|\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(pkg)).toBe(true);
    const audio = ffprobeJson(pkg).streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map((s) => s.tags?.language ?? 'und')).toEqual(['und', 'spa']);
    expect(startedDubs(sb).length).toBe(dubs);
    expect(sb.account.seconds).toBe(balance);
  });
});

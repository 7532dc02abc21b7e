/**
 * A package converts its dubs' subtitles to SubRip before ffmpeg muxes them: those files are written in the
 * data folder's staging area (the results' disk, not the system's temp folder), removed when the package is
 * made, and what a kill -9 left of them is removed by the next run, which makes the package (no charge).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { filesUnder } from '../../helpers/long-extraction';
import { ffprobeJson, videoMatroska } from '../../helpers/media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

/** What is left of packages in the system's temp folder (given to the CLI as TMPDIR) and in the staging area. */
async function leftovers(tmp: string, home: string): Promise<string[]> {
  const inTemp = (await readdir(tmp).catch(() => [] as string[])).filter((n) => n.includes('package'));
  const staging = join(home, 'staging', '.audio-path', 'package');
  const staged = (await filesUnder(staging)).map((n) => join(staging, n));
  return [...inTemp.map((n) => join(tmp, n)), ...staged];
}

describe('the subtitles a package converts', () => {
  it('are made in the staging area, and a kill -9 while the package is made leaves nothing once the next run made it', async () => {
    // The service's own work on eight minutes is not what this test watches: its dubs are the upload.
    sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000, ffmpeg: false });
    const work = tempDir('dubdesk-crash-package-');
    const home = join(work, 'home');
    const out = join(work, 'out');
    const tmp = join(work, 'tmp');
    mkdirSync(tmp);
    const source = join(work, 'long lecture.mkv');
    // Eight minutes of MP2 sound: an MP4 package makes it AAC, long enough to be killed in the middle.
    copyFileSync(videoMatroska(480, 'long-lecture.mkv'), source);
    const env = { ...envFor(sb, home), TMPDIR: tmp, TMP: tmp, TEMP: tmp, DUBDESK_TOOL_HOST: 'off' };
    const added = await runCli(
      [
        ...['add', source, '--to', 'es', '--out', out, '--send', 'audio'],
        ...['--package', 'mp4', '--subtitles', 'vtt,srt'],
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);

    const first = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    let said = '';
    first.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
    const during = await vi.waitFor(
      async () => {
        const left = await leftovers(tmp, home);
        if (left.length === 0)
          throw new Error(`no package being made yet: ${JSON.stringify(await filesUnder(work))} ${said}`);
        return left;
      },
      { timeout: 240_000, interval: 20 },
    );
    expect(
      during.every((p) => p.startsWith(join(home, 'staging'))),
      `made outside the staging area: ${during}`,
    ).toBe(true);
    first.child.kill('SIGKILL');
    await first.done;
    expect(await leftovers(tmp, home), 'the premise: the kill left the converted subtitles').not.toEqual([]);

    const second = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(second.code, second.stderr).toBe(0);
    const pkg = join(out, 'long lecture.multi.mp4');
    await vi.waitFor(async () => expect(await readdir(out)).toContain('long lecture.multi.mp4'), {
      timeout: 60_000,
    });
    expect(ffprobeJson(pkg).streams.filter((s) => s.codec_type === 'audio')).toHaveLength(2);
    expect(await leftovers(tmp, home)).toEqual([]);
    expect(startedDubs(sb)).toHaveLength(1);
    expect(sb.state.ledger).toHaveLength(1);
  }, 400_000);
});

/** `dubdesk estimate`: every row says what its file adds to the total, so the rows add up to it. */
import { copyFileSync, mkdirSync } from 'node:fs';
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

/** The CREDITS column of the table, by file name. */
function rows(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n').slice(1)) {
    const m = /^(\S+\.mp4)\s+\S+\s+(.+?)\s*$/.exec(line.replace(/^.*\//, ''));
    if (m?.[1] && m[2]) out[m[1]] = m[2];
  }
  return out;
}

describe('estimate rows add up to the total', () => {
  it('a copy adds 0 and says whose copy it is; the total says so', async () => {
    const work = tempDir('dubdesk-est-copy-');
    const seven = videoMp4(7, 'est-s7.mp4');
    copyFileSync(seven, join(work, 'a.mp4'));
    copyFileSync(seven, join(work, 'b.mp4'));
    const r = await runCli(
      ['estimate', 'a.mp4', 'b.mp4', '--to', 'sv'],
      envFor(sb, join(work, 'home')),
      work,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual({ 'a.mp4': '7', 'b.mp4': '0 (copy of a.mp4)' });
    expect(r.stdout).toContain('2 jobs (1 copy at no charge): about 7 credits.');
  });

  it('studio: the rows are doubled as the total is, and a copy in a folder adds nothing', async () => {
    const work = tempDir('dubdesk-est-studio-');
    const folder = join(work, 'clips');
    mkdirSync(folder);
    copyFileSync(videoMp4(4, 'est-s4.mp4'), join(folder, 'c.mp4'));
    copyFileSync(videoMp4(5, 'est-s5.mp4'), join(folder, 'd.mp4'));
    copyFileSync(join(folder, 'd.mp4'), join(folder, 'e.mp4'));
    const r = await runCli(
      ['estimate', 'clips', '--to', 'es', '--studio'],
      envFor(sb, join(work, 'home')),
      work,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual({ 'c.mp4': '8', 'd.mp4': '10', 'e.mp4': '0 (copy of d.mp4)' });
    expect(r.stdout).toContain('3 jobs (1 copy at no charge): about 18 credits (studio quality, 2x).');
  });

  it('a file already dubbed adds 0 (already dubbed), one language of two says which', async () => {
    const work = tempDir('dubdesk-est-done-');
    copyFileSync(videoMp4(3, 'est-s3.mp4'), join(work, 'f.mp4'));
    const env = envFor(sb, join(work, 'home'));
    const dub = await runCli(['dub', 'f.mp4', '--to', 'es', '--poll-interval', '0.1'], env, work);
    expect(dub.code, dub.stderr).toBe(0);
    const one = await runCli(['estimate', 'f.mp4', '--to', 'es'], env, work);
    expect(rows(one.stdout)).toEqual({ 'f.mp4': '0 (already dubbed)' });
    const two = await runCli(['estimate', 'f.mp4', '--to', 'es,fr'], env, work);
    expect(rows(two.stdout)).toEqual({ 'f.mp4': '3 (es: already dubbed)' });
    expect(two.stdout).toContain('1 job: about 3 credits.');
  });
});

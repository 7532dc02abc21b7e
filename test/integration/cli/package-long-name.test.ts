/**
 * A source whose name is as long as a file system takes (an export named after its whole title): its
 * results take a shortened stem so `.es.mp4.part` still fits, and its package must take the same one, not
 * fail with the system's ENAMETOOLONG after the dubs were paid.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { ffprobeJson } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** A name of exactly `bytes` bytes of UTF-8 (accents included), ending in `.mp4`. */
function longName(bytes: number): string {
  let stem = '';
  while (Buffer.byteLength(`${stem}exporté `) + 4 <= bytes) stem += 'exporté ';
  return `${stem}${'x'.repeat(bytes - 4 - Buffer.byteLength(stem))}.mp4`;
}

describe('--package mkv of a source with a 250-byte name', () => {
  it('is made beside the results, under their shortened name', async () => {
    const work = tempDir('dubdesk-long-name-');
    const name = longName(250);
    expect(Buffer.byteLength(name)).toBe(250);
    const source = join(work, name);
    copyFileSync(talkVideo(3), source);
    const env = envFor(sb, join(work, 'home'));
    const dubbed = await runCli(
      [
        'dub',
        source,
        '--to',
        'es,fr',
        '--package',
        'mkv',
        '--subtitles',
        'vtt,srt',
        '--poll-interval',
        '0.1',
      ],
      env,
      work,
    );
    expect(dubbed.stderr).not.toContain('ENAMETOOLONG');
    expect(dubbed.stderr).toContain('This batch: 2 completed, 0 failed.');
    expect(dubbed.code, dubbed.stderr).toBe(0);

    const made = readdirSync(work);
    const dubbedVideo = made.find((f) => f.endsWith('.es.mp4'));
    expect(dubbedVideo, made.join('\n')).toBeDefined();
    const stem = (dubbedVideo ?? '').slice(0, -'.es.mp4'.length);
    expect(stem).toMatch(/~[0-9a-f]{8}$/);
    const pkg = join(work, `${stem}.multi.mkv`);
    expect(existsSync(pkg), made.join('\n')).toBe(true);
    expect(dubbed.stderr).toContain(`package: ${pkg} (es, fr)`);
    const languages = ffprobeJson(pkg)
      .streams.filter((s) => s.codec_type === 'audio')
      .map((s) => s.tags?.language ?? 'und');
    expect(languages).toEqual(['und', 'spa', 'fre']);
    expect(made.filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

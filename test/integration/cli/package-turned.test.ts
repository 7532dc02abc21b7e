/**
 * A phone's recording stores its picture sideways and says how to turn it (a display matrix). An MP4 keeps
 * that; a Matroska file written by ffmpeg cannot say it, so an MKV package would play on its side. The
 * dubs go ahead (they keep the rotation), the MKV package is refused in words naming the file and the
 * command that makes it as MP4 (the window's words name no command: test/e2e/package-turned.test.ts), and that MP4 package plays the right way up.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { ffprobeJson, videoMd5, videoTurnedWithChapters } from '../../helpers/media';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { shipped } from '../../helpers/toolsets';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const rotationOf = (path: string) =>
  ffprobeJson(path)
    .streams.find((s) => s.codec_type === 'video')
    ?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? 0;

describe('--package mkv of a phone video shot turned', () => {
  it('dubs it, refuses the MKV package saying to make it MP4, and the MP4 package keeps the rotation', async () => {
    const work = tempDir('dubdesk-turned-');
    const source = join(work, 'vacances été.mp4');
    copyFileSync(videoTurnedWithChapters(4, 'turned.mp4', (await shipped()).ffmpeg), source);
    expect(Math.abs(rotationOf(source))).toBe(90);
    const env = envFor(sb, join(work, 'home'));

    const dubbed = await runCli(
      ['dub', source, '--to', 'es', '--send', 'audio', '--package', 'mkv', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(dubbed.stderr).not.toMatch(/\n\s+at /);
    expect(dubbed.stderr).toContain('This batch: 1 completed, 0 failed.');
    expect(dubbed.stderr).toContain(
      `✗ no package of vacances été.mp4: ${source} cannot be packaged as MKV: its picture is turned 90°`,
    );
    expect(dubbed.stderr).toContain(`package it as MP4 instead: dubdesk package --format mp4 '${source}'`);
    expect(dubbed.code, dubbed.stderr).toBe(1);
    expect(readdirSync(work).filter((f) => f.endsWith('.mkv') || f.endsWith('.part'))).toEqual([]);
    expect(Math.abs(rotationOf(join(work, 'vacances été.es.mp4')))).toBe(90);

    const charged = startedDubs(sb).length;
    const packaged = await runCli(['package', source, '--format', 'mp4'], env);
    expect(packaged.code, packaged.stderr).toBe(0);
    const pkg = join(work, 'vacances été.multi.mp4');
    expect(existsSync(pkg)).toBe(true);
    expect(Math.abs(rotationOf(pkg))).toBe(90);
    expect(videoMd5(pkg)).toBe(videoMd5(source));
    expect(startedDubs(sb)).toHaveLength(charged);
  });
});

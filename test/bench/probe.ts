/** Duration and type of 500 media files: the engine's probing against spawning ffprobe per file. */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { probeMany } from '../../electron/engine/media/probe';
import { audioMp3, videoMov, videoMp4 } from '../helpers/media';
import { alternate, median, ratioOf, round, type Figure } from './figures';

const run = promisify(execFile);
const FILES = 500;
/** ffprobe is slow enough that a twenty-fifth of the files (4 of each kind) tells its cost per file. */
const FFPROBE_FILES = 20;

function ffmpegFixture(dir: string, name: string, args: string[]): string {
  const p = join(dir, name);
  if (!existsSync(p)) execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, p]);
  return p;
}

function makeFiles(work: string): string[] {
  const dir = join(work, 'probe');
  mkdirSync(dir, { recursive: true });
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=330', '-t', '2'];
  const kinds = [
    videoMp4(3),
    videoMov(2),
    audioMp3(2.5),
    ffmpegFixture(dir, 'src.wav', tone),
    ffmpegFixture(dir, 'src.m4a', [...tone, '-c:a', 'aac']),
  ];
  return Array.from({ length: FILES }, (_, i) => {
    const src = kinds[i % kinds.length] ?? '';
    const p = join(dir, `f${i}${src.slice(src.lastIndexOf('.'))}`);
    copyFileSync(src, p);
    return p;
  });
}

async function ffprobeAll(paths: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const p = paths[next++] ?? '';
      await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration:format=format_name',
        '-of',
        'json',
        p,
      ]);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

export async function probeFigures(work: string): Promise<Figure[]> {
  const files = makeFiles(work);
  const runs = await alternate(
    3,
    async () => {
      const t0 = performance.now();
      const r = await probeMany(files);
      if (r.some((x) => !('durationSeconds' in x))) throw new Error('a file was refused');
      return (performance.now() - t0) / files.length;
    },
    async () => {
      const t0 = performance.now();
      await ffprobeAll(files.slice(0, FFPROBE_FILES));
      return (performance.now() - t0) / FFPROBE_FILES;
    },
  );
  const mine = median(runs.a);
  const ffprobe = median(runs.b);
  const each = (xs: number[]) => xs.map((x) => round(x)).join(', ');
  process.stderr.write(
    `bench: probing: ms per file, each round: ${each(runs.a)} vs ffprobe ${each(runs.b)}\n`,
  );
  return [
    {
      name: `probing: duration and type of ${FILES} media files, per file`,
      measured: round(mine),
      unit: 'ms',
      target: '< 5',
      reference: `ffprobe per file: ${round(ffprobe)} ms`,
      ratio: ratioOf(mine, ffprobe),
      pass: mine < 5,
    },
  ];
}

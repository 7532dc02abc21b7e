/**
 * The wire figures (issue 34): what the audio path saves against sending the whole file, each against its
 * reference measured in the same run, on real 1080p media (H.264 at 8 Mbit/s, AAC 128 kbit/s stereo):
 * - bytes on the wire per finished dub, one clip into 5 languages (sandbox with ffmpeg: its dubbed video is
 *   the upload remuxed, as large as the source, its dubbed sound an MP3);
 * - the batch's makespan, 3 clips into 5 languages, over a link the sandbox shapes to 20 MiB/s;
 * - the rebuild's time per minute of video against `ffmpeg -c copy` of the same file (medians of alternating
 *   runs), with the same rebuild keeping the dubbed MP3 as it is beside it, to show what the AAC encode costs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { locateMediaTools } from '../../electron/engine/media/ffmpeg/locate';
import { rebuildVideo } from '../../electron/engine/media/ffmpeg/rebuild';
import { runTool } from '../../electron/engine/media/ffmpeg/run';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { runChild } from './child';
import { alternate, median, ratioOf, round, type Figure } from './figures';
import { API_KEY, benchSandbox } from './sandbox';
import type { WireChildResult } from './wire-child';

const LANGS = ['es', 'fr', 'de', 'it', 'pt'];
const SECONDS = Number(process.env.BENCH_WIRE_SECONDS ?? 30);
const RATE_MIBPS = 20;
const BYTES_TARGET = 0.05;
const MAKESPAN_TARGET = 0.2;
const REBUILD_TARGET = 1.5;
const MB = 1e6;

const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

/** 1080p H.264 at 8 Mbit/s (10 s encoded, then looped) under AAC 128 kbit/s stereo, `n` copies told apart. */
function clips(dir: string, n: number): string[] {
  const ten = join(dir, 'ten.mp4');
  if (!existsSync(ten))
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1920x1080:rate=30,noise=alls=20:allf=t',
      '-t',
      '10',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '8M',
      '-minrate',
      '8M',
      '-maxrate',
      '8M',
      '-bufsize',
      '4M',
      '-x264-params',
      'nal-hrd=cbr',
      '-pix_fmt',
      'yuv420p',
      ten,
    ]);
  const base = join(dir, 'talk.mp4');
  if (!existsSync(base))
    ff([
      '-stream_loop',
      '-1',
      '-i',
      ten,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo',
      '-t',
      String(SECONDS),
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c:v',
      'copy',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      base,
    ]);
  return Array.from({ length: n }, (_, i) => {
    const p = join(dir, `talk-${i + 1}.mp4`);
    if (!existsSync(p)) ff(['-i', base, '-map', '0', '-c', 'copy', '-metadata', `comment=talk ${i + 1}`, p]);
    return p;
  });
}

async function batch(
  work: string,
  files: string[],
  send: 'audio' | 'file',
  sandbox: { ffmpeg: boolean; linkRateMiBps?: number },
): Promise<WireChildResult> {
  const dir = join(work, `${send}-${files.length}-${sandbox.ffmpeg}`);
  const sb = await benchSandbox({
    pipelineSeconds: 2,
    balance: 1e9,
    dataDir: join(dir, 'sandbox'),
    ...sandbox,
  });
  try {
    return await runChild<WireChildResult>('./wire-child.ts', {
      baseUrl: sb.baseUrl,
      apiKey: API_KEY,
      home: join(dir, 'home'),
      outDir: join(dir, 'out'),
      files,
      to: LANGS,
      send,
      concurrency: 2,
      pollMs: 300,
    });
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rebuildFigures(work: string, source: string): Promise<Figure[]> {
  const { tools } = await locateMediaTools();
  if (!tools) throw new Error('no ffmpeg for the rebuild figure');
  const dubbed = join(work, 'dubbed.mp3');
  ff(['-i', source, '-vn', '-c:a', 'libmp3lame', '-b:a', '64k', dubbed]);
  const streams = await probeStreams(tools.ffprobe, source);
  const dubbedSeconds = (await probeStreams(tools.ffprobe, dubbed)).durationSeconds ?? SECONDS;
  const timed = async (work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    return performance.now() - t;
  };
  const rebuild = () =>
    timed(() =>
      rebuildVideo(tools, {
        source,
        sourceStreams: streams,
        dubbedAudio: dubbed,
        dubbedSeconds,
        destLang: 'es',
        out: join(work, 'talk.es.mp4'),
      }),
    );
  const copy = () =>
    timed(() =>
      runTool(
        tools.ffmpeg,
        ['-v', 'error', '-y', '-i', source, '-c', 'copy', '-f', 'mp4', join(work, 'copy.mp4')],
        { timeoutMs: 600_000 },
      ),
    );
  const keepMp3 = () =>
    timed(() =>
      runTool(
        tools.ffmpeg,
        [
          '-v',
          'error',
          '-y',
          '-i',
          source,
          '-i',
          dubbed,
          '-map',
          '0:v',
          '-map',
          '1:a',
          '-c',
          'copy',
          '-f',
          'mp4',
          join(work, 'mp3.mp4'),
        ],
        { timeoutMs: 600_000 },
      ),
    );
  const runs = await alternate(5, rebuild, copy);
  const mp3 = await alternate(5, keepMp3, copy);
  const perMinute = (ms: number) => (ms * 60) / SECONDS;
  const [r, c, m, c2] = [median(runs.a), median(runs.b), median(mp3.a), median(mp3.b)];
  const ratio = ratioOf(r, c);
  return [
    {
      name: `wire: rebuild per minute of 1080p video (picture copied, dub encoded to AAC; ${tools.from} ${tools.version.replace(/^ffmpeg version /, '').slice(0, 24)})`,
      measured: round(perMinute(r), 0),
      unit: 'ms',
      target: `<= ${REBUILD_TARGET}x`,
      reference: `ffmpeg -c copy of the same file ${round(perMinute(c), 0)} ms a minute`,
      ratio,
      pass: ratio <= REBUILD_TARGET,
    },
    {
      name: 'wire: the same rebuild keeping the dubbed MP3 as it is (for comparison: what the AAC encode costs)',
      measured: round(perMinute(m), 0),
      unit: 'ms',
      target: 'information',
      reference: `ffmpeg -c copy ${round(perMinute(c2), 0)} ms a minute`,
      ratio: ratioOf(m, c2),
      pass: null,
    },
  ];
}

export async function wireFigures(work: string): Promise<Figure[]> {
  const dir = join(work, 'wire');
  mkdirSync(dir, { recursive: true });
  const files = clips(dir, 3);
  const [one] = files;
  if (!one) throw new Error('no clip');
  const audio = await batch(dir, [one], 'audio', { ffmpeg: true });
  const whole = await batch(dir, [one], 'file', { ffmpeg: true });
  const perDub = (b: WireChildResult) => b.bytes / b.dubs;
  const bytesRatio = ratioOf(perDub(audio), perDub(whole));
  const fastAudio = await batch(dir, files, 'audio', { ffmpeg: false, linkRateMiBps: RATE_MIBPS });
  const fastWhole = await batch(dir, files, 'file', { ffmpeg: false, linkRateMiBps: RATE_MIBPS });
  const makespan = ratioOf(fastAudio.makespanMs, fastWhole.makespanMs);
  return [
    {
      name: `wire: bytes on the wire per finished dub (1080p ${SECONDS} s clip into ${LANGS.length} languages, v2, sound alone)`,
      measured: round(perDub(audio) / MB, 2),
      unit: 'MB',
      target: `<= ${BYTES_TARGET}x`,
      reference: `the whole file ${round(perDub(whole) / MB, 2)} MB a dub`,
      ratio: bytesRatio,
      pass: bytesRatio <= BYTES_TARGET,
    },
    {
      name: `wire: batch makespan (3 clips into ${LANGS.length} languages over ${RATE_MIBPS} MiB/s, sound alone)`,
      measured: round(fastAudio.makespanMs, 0),
      unit: 'ms',
      target: `<= ${MAKESPAN_TARGET}x`,
      reference: `the whole files ${round(fastWhole.makespanMs, 0)} ms`,
      ratio: makespan,
      pass: makespan <= MAKESPAN_TARGET,
    },
    ...(await rebuildFigures(dir, one)),
  ];
}

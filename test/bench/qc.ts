/**
 * QC's cost: the check of one dub (one ffmpeg pass over its sound: ebur128 with true peak, silencedetect,
 * volumedetect; its length from the same pass; an ffprobe of its streams) per minute of dub, against one
 * plain `ffmpeg -af ebur128` pass over the same file, with the same ffmpeg. The source's own pass (its
 * pauses, once per source whatever its number of languages) is a figure of its own.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkDub, sourceFacts } from '../../electron/engine/media/qc/check-dub';
import { mediaTools } from '../../electron/engine/media/ffmpeg/locate';
import { alternate, median, ratioOf, round, type Figure } from './figures';

const run = promisify(execFile);
/** Two minutes: long enough that starting ffmpeg is not what is measured. */
const SECONDS = 120;
const RUNS = 5;
const TARGET_RATIO = 1.3;

/** A talk as a service hands back a dub: H.264 picture, 48 kHz stereo AAC with a voice-like tone and noise. */
function dubFile(work: string): string {
  const dir = join(work, 'qc');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'talk.es.mp4');
  if (!existsSync(path))
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=220:sample_rate=48000',
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:sample_rate=48000:amplitude=0.05',
      '-filter_complex',
      '[1][2]amerge=inputs=2,volume=-6dB[a]',
      '-map',
      '0:v',
      '-map',
      '[a]',
      '-t',
      String(SECONDS),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-ac',
      '2',
      path,
    ]);
  return path;
}

/**
 * CPU seconds the finished child processes used (Linux: /proc/self/stat's cutime + cstime, in clock ticks
 * of 1/100 s): on a shared machine the wall clock measures the other engineers' load as much as ffmpeg.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds of the ffmpeg and ffprobe `f` ran (wall seconds where the system does not say). */
const timed = async (f: () => Promise<unknown>) => {
  const c0 = childCpuSeconds();
  const t0 = performance.now();
  await f();
  const c1 = childCpuSeconds();
  return c0 !== null && c1 !== null ? c1 - c0 : (performance.now() - t0) / 1000;
};

export async function qcFigures(work: string): Promise<Figure[]> {
  const { tools } = await mediaTools();
  if (!tools) throw new Error('no ffmpeg found (npm ci installs the one shipped with Dubdesk)');
  const dub = dubFile(work);
  const minutes = SECONDS / 60;
  const source = await sourceFacts(tools, dub, SECONDS);
  const ebur128 = (audioOnly: boolean, filter = 'ebur128') =>
    run(tools.ffmpeg, [
      '-hide_banner',
      '-nostats',
      '-nostdin',
      '-i',
      dub,
      ...(audioOnly ? ['-vn'] : []),
      '-af',
      filter,
      '-f',
      'null',
      '-',
    ]);
  const qcRuns = await alternate(
    RUNS,
    () => timed(() => checkDub(tools, { media: dub, subtitles: null }, source, 'broadcast')),
    () => timed(() => ebur128(true)),
  );
  const literal = await alternate(
    RUNS,
    () => timed(() => ebur128(false)),
    () => timed(() => sourceFacts(tools, dub, SECONDS)),
  );
  // What EBU R128's true peak costs alone: ebur128 oversamples the sound 4x to find it.
  const truePeakRuns = await alternate(
    RUNS,
    () => timed(() => ebur128(true, 'ebur128=peak=true')),
    () => Promise.resolve(0),
  );
  const qc = median(qcRuns.a) / minutes;
  const truePeakPass = median(truePeakRuns.a) / minutes;
  const audioPass = median(qcRuns.b) / minutes;
  const wholePass = median(literal.a) / minutes;
  const sourcePass = median(literal.b) / minutes;
  const ratio = ratioOf(qc, audioPass);
  return [
    {
      name: `QC of a dub (${SECONDS / 60} min, 48 kHz stereo), per minute of dub`,
      measured: round(qc, 3),
      unit: 'CPU s/min',
      target: `<= ${TARGET_RATIO}x`,
      reference: `one ffmpeg -vn -af ebur128 pass: ${round(audioPass, 3)} CPU s/min (${tools.from} ffmpeg)`,
      ratio,
      pass: qc / audioPass <= TARGET_RATIO,
    },
    {
      name: 'QC of a dub against `ffmpeg -i dub -af ebur128 -f null -` as typed (the picture decoded too)',
      measured: round(qc, 3),
      unit: 'CPU s/min',
      target: `<= ${TARGET_RATIO}x`,
      reference: `${round(wholePass, 3)} CPU s/min`,
      ratio: ratioOf(qc, wholePass),
      pass: qc / wholePass <= TARGET_RATIO,
    },
    {
      name: 'QC of a dub against one ebur128 pass that measures the true peak too (`-af ebur128=peak=true`)',
      measured: round(qc, 3),
      unit: 'CPU s/min',
      target: '—',
      reference: `${round(truePeakPass, 3)} CPU s/min`,
      ratio: ratioOf(qc, truePeakPass),
      pass: null,
    },
    {
      name: "QC's pass over the source (its pauses), once per source, per minute",
      measured: round(sourcePass, 3),
      unit: 'CPU s/min',
      target: '—',
      reference: `one ffmpeg -vn -af ebur128 pass: ${round(audioPass, 3)} CPU s/min`,
      ratio: ratioOf(sourcePass, audioPass),
      pass: null,
    },
  ];
}

/**
 * QC's cost: the check of one dub (one ffmpeg pass over its sound: ebur128 with true peak, silencedetect,
 * volumedetect chained on one decode; its length from the same pass) per minute of dub, with the same ffmpeg,
 * against the issue's reference: one `ffmpeg -af ebur128` pass over the same file, as typed (the picture is
 * decoded too), and like for like (the sound alone, measuring the true peak QC must report). Two dubs, each
 * the file the user is handed: the service's video (AAC 48 kHz), and on the audio path the video made here
 * from the service's dubbed sound (its MP3 at 44.1 kHz encoded to AAC under the picture; QC also reads the
 * MP3's length). A plain pass without the true peak, and the source's own pass, are figures of their own.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { rebuildVideo } from '../../electron/engine/media/ffmpeg/rebuild';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { checkDub, sourceFacts } from '../../electron/engine/media/qc/check-dub';
import type { MediaTools } from '../../electron/media-tools/locate';
import { mediaTools } from '../../electron/media-tools/locate';
import { median, partClock, ratioOf, round, type Figure } from './figures';

const run = promisify(execFile);
/** A minute and a half: long enough that starting ffmpeg (tens of ms of CPU) is not what is measured. */
const SECONDS = 90;
/** Rounds; each runs QC and every reference once, in turns, and each figure is the median of its runs. */
const RUNS = 3;
const TARGET_RATIO = 1.3;

/** Seconds of picture encoded, then looped under the sound: each minute decodes the same kind of frames. */
const PICTURE_SECONDS = 5;

/** A talk as a service hands back a dub: H.264 picture, 48 kHz stereo AAC with a voice-like tone and noise. */
function dubFile(work: string): string {
  const dir = join(work, 'qc');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'talk.es.mp4');
  if (existsSync(path)) return path;
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  const picture = join(dir, 'picture.mp4');
  ff([
    ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', String(PICTURE_SECONDS)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', picture],
  ]);
  ff([
    ...['-stream_loop', '-1', '-i', picture],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000'],
    ...['-f', 'lavfi', '-i', 'anoisesrc=color=pink:sample_rate=48000:amplitude=0.05'],
    ...['-filter_complex', '[1][2]amerge=inputs=2,volume=-6dB[a]', '-map', '0:v', '-map', '[a]'],
    ...['-t', String(SECONDS), '-c:v', 'copy', '-c:a', 'aac', '-ac', '2', path],
  ]);
  return path;
}

/** The dubbed sound as the service sends it on the audio path: MP3, 44.1 kHz, 64 kbit/s. */
function dubSound(video: string): string {
  const path = video.replace(/\.mp4$/, '.mp3');
  if (!existsSync(path))
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', video, '-vn', '-ar', '44100', '-b:a', '64k', path]);
  return path;
}

/** The video made here on the audio path from that sound, by the rebuild's own code: what QC measures there. */
async function rebuiltFile(tools: MediaTools, video: string, sound: string): Promise<string> {
  const out = video.replace(/\.mp4$/, '.rebuilt.mp4');
  if (existsSync(out)) return out;
  const [sourceStreams, dubbed] = await Promise.all([
    probeStreams(tools.ffprobe, video),
    probeStreams(tools.ffprobe, sound),
  ]);
  await rebuildVideo(tools, {
    source: video,
    sourceStreams,
    dubbedAudio: sound,
    dubbedSeconds: dubbed.durationSeconds ?? SECONDS,
    dubbedChannels: dubbed.audio?.channels ?? null,
    destLang: 'es',
    out,
  });
  return out;
}

/** The QC pass's filters as one graph of three branches (asplit) instead of a chain: tried, and dearer. */
const ASPLIT_GRAPH =
  '[0:a:0]asplit=3[l][s][v];[l]ebur128=peak=true+sample:framelog=verbose,anullsink;' +
  '[s]silencedetect=n=-50dB:d=5,anullsink;[v]volumedetect,anullsink';

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
  const took = partClock('qc');
  const { tools } = await mediaTools();
  if (!tools) throw new Error('no ffmpeg found (npm ci installs the one shipped with Dubdesk)');
  const dub = dubFile(work);
  const sound = dubSound(dub);
  const rebuilt = await rebuiltFile(tools, dub, sound);
  const minutes = SECONDS / 60;
  const source = await sourceFacts(tools, dub, SECONDS);
  const ffmpeg = (input: string, ...args: string[]) =>
    run(tools.ffmpeg, ['-hide_banner', '-nostats', '-nostdin', '-i', input, ...args, '-f', 'null', '-']);
  const ebur128 = (input: string, audioOnly: boolean, filter = 'ebur128') =>
    ffmpeg(input, ...(audioOnly ? ['-vn'] : []), '-af', filter);
  const qcOf = (media: string, madeFrom?: string) => () =>
    timed(() =>
      checkDub(
        tools,
        { media, subtitles: null, ...(madeFrom ? { madeFrom: { sound: madeFrom } } : {}) },
        source,
        'broadcast',
      ),
    );
  const perMinute = (runs: number[]) => median(runs) / minutes;

  took('the dubs made (setup)');
  const each = {
    qc: qcOf(dub),
    plain: () => timed(() => ebur128(dub, true)),
    literal: () => timed(() => ebur128(dub, false)),
    source: () => timed(() => sourceFacts(tools, dub, SECONDS)),
    // EBU R128's true peak (ebur128 oversamples the sound 4x to find it), and the graph tried instead of the chain.
    peak: () => timed(() => ebur128(dub, true, 'ebur128=peak=true')),
    asplit: () => timed(() => ffmpeg(dub, '-vn', '-filter_complex', ASPLIT_GRAPH)),
    qcMade: qcOf(rebuilt, sound),
    madePlain: () => timed(() => ebur128(rebuilt, true)),
    madePeak: () => timed(() => ebur128(rebuilt, true, 'ebur128=peak=true')),
  };
  const runs = Object.fromEntries(Object.keys(each).map((k) => [k, [] as number[]])) as Record<
    keyof typeof each,
    number[]
  >;
  for (let i = 0; i < RUNS; i++)
    for (const [name, f] of Object.entries(each)) runs[name as keyof typeof each].push(await f());
  took(`${RUNS} rounds`);
  process.stderr.write(
    `bench: qc: each round, CPU s: ${Object.entries(runs)
      .map(([name, xs]) => `${name} ${xs.map((x) => round(x, 2)).join(' ')}`)
      .join('; ')}\n`,
  );
  const video = { a: runs.qc, b: runs.plain };
  const literal = { a: runs.literal, b: runs.source };
  const peak = { a: runs.peak, b: runs.asplit };
  const made = { a: runs.qcMade, b: runs.madePlain };
  const madePeak = { a: runs.madePeak, b: runs.qcMade };

  const qc = perMinute(video.a);
  const audioPass = perMinute(video.b);
  const qcMade = perMinute(made.a);
  const madePass = perMinute(made.b);
  const cpu = 'CPU s/min';
  const against = (name: string, measured: number, reference: string, base: number, target: boolean) => ({
    name,
    measured: round(measured, 3),
    unit: cpu,
    target: target ? `<= ${TARGET_RATIO}x` : '—',
    reference: `${reference}: ${round(base, 3)} ${cpu}`,
    ratio: ratioOf(measured, base),
    pass: target ? measured / base <= TARGET_RATIO : null,
  });
  return [
    against(
      `QC of a dub (${minutes} min video, AAC 48 kHz stereo) against \`ffmpeg -i dub -af ebur128 -f null -\` as typed`,
      qc,
      `that pass, the picture decoded too (${tools.from} ffmpeg)`,
      perMinute(literal.a),
      true,
    ),
    against(
      'QC of that dub against one pass over its sound measuring the true peak QC reports',
      qc,
      'ffmpeg -vn -af ebur128=peak=true',
      perMinute(peak.a),
      true,
    ),
    against(
      'QC of the video made here on the audio path (the MP3 the service sent, in AAC 44.1 kHz under the picture), the same way',
      perMinute(made.a),
      'ffmpeg -vn -af ebur128=peak=true over that video',
      perMinute(madePeak.a),
      true,
    ),
    against(
      'QC of the dub against a plain pass over its sound, without the true peak',
      qc,
      'ffmpeg -vn -af ebur128',
      audioPass,
      false,
    ),
    against(
      'QC of the video made here against a plain pass over its sound, without the true peak',
      qcMade,
      'ffmpeg -vn -af ebur128 over that video',
      madePass,
      false,
    ),
    against(
      "QC's filters as one asplit graph of three branches instead of a chain (tried, not used)",
      perMinute(peak.b),
      'the chain QC runs',
      qc,
      false,
    ),
    against(
      "QC's pass over the source (its pauses and loudness), once per source, per minute",
      perMinute(literal.b),
      'one ffmpeg -vn -af ebur128 pass',
      audioPass,
      false,
    ),
  ];
}

import { rename } from 'node:fs/promises';
import type { BadDub } from './options';
import type { ProcessPool } from './process-pool';

/** How much shorter a `short` dub's sound is, and how long a `silence` dub's gap. */
export const SHORT_BY_SECONDS = 4;
export const SILENCE_SECONDS = 6;
/** How far a `long` dub's sound runs past the source's, and how much louder that last line is said. */
export const LONG_BY_SECONDS = 4;
const LONG_TAIL_DB = 8;
const LOUDER_DB = 24;

const SPOILED_SOUND: ReadonlySet<BadDub> = new Set(['short', 'long', 'loud', 'silence']);

/** The audio filters that spoil a dub's sound as asked, one after the other; empty when it is left alone. */
function audioChain(bad: readonly BadDub[], seconds: number): string[] {
  const parts: string[] = [];
  if (bad.includes('silence')) {
    const start = Math.max(0, seconds / 2 - SILENCE_SECONDS / 2);
    parts.push(
      `volume=enable='between(t,${start.toFixed(3)},${(start + SILENCE_SECONDS).toFixed(3)})':volume=0`,
    );
  }
  // Louder, then cut to 16 bits: clipped as a careless master is.
  if (bad.includes('loud')) parts.push(`volume=${LOUDER_DB}dB`, 'aformat=sample_fmts=s16');
  if (bad.includes('short')) parts.push(`atrim=end=${Math.max(0.5, seconds - SHORT_BY_SECONDS).toFixed(3)}`);
  return parts;
}

/**
 * The graph from the first sound to `[a]`: the chain above, then for `long` its first seconds said again
 * after its end, louder (a voice that ran on past the picture, its last line raised).
 */
function audioGraph(bad: readonly BadDub[], seconds: number): string {
  const chain = audioChain(bad, seconds);
  const head = `[0:a:0]${chain.length ? chain.join(',') : 'anull'}`;
  if (!bad.includes('long')) return `${head}[a]`;
  const tail = `atrim=end=${LONG_BY_SECONDS},asetpts=PTS-STARTPTS,volume=${LONG_TAIL_DB}dB`;
  return `${head},asplit[body][t0];[t0]${tail}[t1];[body][t1]concat=n=2:v=0:a=1[a]`;
}

/** How long a file's first sound plays (its stream's own length); `fallback` when it does not say. */
async function soundSeconds(path: string, fallback: number, pool: ProcessPool): Promise<number> {
  const { stdout } = await pool.run('ffprobe', [
    ...['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration'],
    ...['-of', 'default=noprint_wrappers=1:nokey=1', path],
  ]);
  const said = Number(stdout.trim());
  return Number.isFinite(said) && said > 0 ? said : fallback;
}

/**
 * A dubbed output's sound spoiled in place (its picture copied as it is): what QC must catch. Needs ffmpeg;
 * without it the sandbox's dubs stay good. Short and silent stretches are placed on the sound's own length,
 * which may end before the picture (`seconds`, the media's).
 */
export async function spoilMedia(
  path: string,
  bad: readonly BadDub[],
  seconds: number,
  pool: ProcessPool,
): Promise<void> {
  if (!bad.some((b) => SPOILED_SOUND.has(b))) return;
  const graph = audioGraph(bad, await soundSeconds(path, seconds, pool));
  const mp3 = path.endsWith('.mp3');
  const spoiled = `${path}.spoiled${mp3 ? '.mp3' : '.mp4'}`;
  await pool.run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', path, '-filter_complex', graph],
    ...['-map', '0:v?', '-map', '[a]', '-c', 'copy'],
    ...(mp3 ? ['-c:a', 'libmp3lame', '-b:a', '64k'] : ['-c:a', 'aac', '-movflags', '+faststart']),
    spoiled,
  ]);
  await rename(spoiled, path);
}

/** 150 characters: over 20 a second in any cue shorter than 7.5 s. */
const FAST_TEXT = `${'Far too much text for the time this cue is shown on the screen, '.repeat(3)}`.slice(
  0,
  150,
);

/** WebVTT's timestamp of `s` seconds. */
function ts(s: number): string {
  const ms = Math.round(s * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}.${pad(ms % 1000, 3)}`;
}

/** The subtitles spoiled as asked: each kind one clear fault, the rest of the file as it was. */
export function spoilSubtitles(vtt: string, bad: readonly BadDub[], seconds: number): string {
  const [header = 'WEBVTT', ...cues] = vtt.trimEnd().split('\n\n');
  if (bad.includes('subtitles-order') && cues.length >= 2) {
    const [a, b] = [cues[0] ?? '', cues[1] ?? ''];
    cues[0] = b;
    cues[1] = a;
  }
  if (bad.includes('subtitles-unreadable'))
    cues.splice(Math.min(1, cues.length), 0, 'broken\n00:00:0x.000 -> 00:00:01.000\nthis cue has no timing');
  if (bad.includes('subtitles-fast') && cues[0]) {
    // The first cue keeps its place and timing; its text becomes far more than anyone reads in its time.
    const [id = '1', timing = `${ts(0)} --> ${ts(1)}`] = cues[0].split('\n');
    cues[0] = `${id}\n${timing}\n${FAST_TEXT}`;
  }
  if (bad.includes('subtitles-past-end'))
    cues.push(`late\n${ts(seconds + 5)} --> ${ts(seconds + 8)}\nThis cue comes after the video has ended.`);
  return `${[header, ...cues].join('\n\n')}\n`;
}

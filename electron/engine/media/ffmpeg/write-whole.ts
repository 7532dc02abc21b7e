import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { lengthsAsEdited } from './edit-list-length';
import type { PartWriter, PartWriters } from '../../../media-tools/part-writers';
import { runTool, type RunOptions } from '../../../media-tools/run';

export interface WholeOptions extends RunOptions {
  /** Where this writer is recorded, so that a run after a kill -9 stops its ffmpeg and removes its part. */
  writers?: PartWriters | undefined;
  /** The longest the MP4's header may say it plays (edit-list-length.ts). */
  capSeconds?: number;
}

/** A part of this writer's own, recorded where there is a record. */
const ownPart = async (out: string, writers: PartWriters | undefined): Promise<PartWriter> =>
  writers
    ? writers.begin(out)
    : { part: `${out}.${randomBytes(4).toString('hex')}.part`, spawned: async () => {}, end: async () => {} };

/**
 * ffmpeg writes `out` whole or not at all: into a `.part` of its own (an ffmpeg a killed run left going
 * writes on in its own, never in this one's), an MP4's lengths set to what its edit list plays (and with
 * `capSeconds`, to that at most: edit-list-length.ts), then renamed. A failure leaves no part.
 */
export async function ffmpegWhole(
  ffmpeg: string,
  args: readonly string[],
  muxer: string,
  out: string,
  opts: WholeOptions,
): Promise<void> {
  const writer = await ownPart(out, opts.writers);
  const { part } = writer;
  try {
    await runTool(ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args, '-f', muxer, part], {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      onSpawn: writer.spawned,
    });
    if (muxer === 'mp4') await lengthsAsEdited(part, opts.capSeconds);
    await rename(part, out);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  } finally {
    await writer.end();
  }
}

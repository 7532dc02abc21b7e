import { rename, rm } from 'node:fs/promises';
import { lengthsAsEdited } from './edit-list-length';
import { runTool, type RunOptions } from '../../../media-tools/run';

/**
 * ffmpeg writes `out` whole or not at all: into `${out}.part`, an MP4's lengths set to what its edit list
 * plays (and with `capSeconds`, to that at most: edit-list-length.ts), then renamed. A part left by a run that was killed is made again (its ffmpeg may still be writing
 * the old one); a failure leaves none.
 */
export async function ffmpegWhole(
  ffmpeg: string,
  args: readonly string[],
  muxer: string,
  out: string,
  opts: RunOptions & { capSeconds?: number },
): Promise<void> {
  const part = `${out}.part`;
  await rm(part, { force: true });
  try {
    await runTool(ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args, '-f', muxer, part], opts);
    if (muxer === 'mp4') await lengthsAsEdited(part, opts.capSeconds);
    await rename(part, out);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
}

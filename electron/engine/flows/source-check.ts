import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { creditsFor } from '../../../shared/credits';
import { DubdeskError } from '../../../shared/contract/errors';
import type { SourceIdentity } from '../api/file-body';
import { ApiError } from '../api/errors';
import { probeFile } from '../media/probe';
import type { LeasedJob, StepContext } from './context';

/**
 * The source just before it is sent: still the size and modification time recorded for the job, else the
 * job records what the file is now and waits for it to settle (nothing is sent). A file whose identity was
 * reset that way (or never known) is hashed once here, when it has stopped changing. What this returns goes
 * with the upload, which checks it again before the file's last bytes leave. `seen`: the step's own look
 * at the file a moment ago, with nothing awaited since but the disk (`assertSourceFile`), not taken again.
 */
export async function sourceBeforeUpload(
  ctx: StepContext,
  job: LeasedJob,
  seen?: Stats,
): Promise<SourceIdentity | undefined> {
  const r = job.row;
  if (r.source_kind !== 'file') return undefined;
  const now = seen ?? (await stat(r.source).catch(() => null));
  if (!now) return undefined; // assertSourceFile names a file that is gone
  const sameTime = r.source_mtime !== null && Math.round(now.mtimeMs) === Math.round(r.source_mtime);
  if (now.size !== r.source_bytes || !sameTime) {
    chosenTrackStillKnown(r.source, r.audio_track, r.source_bytes, now.size);
    // Its sound, if already taken from the old content, is not what is there now.
    job.record({
      source_bytes: now.size,
      source_mtime: now.mtimeMs,
      source_hash: null,
      staged_audio: null,
      staged_type: null,
    });
    // Waited for as any file still being written is (the job says why); nothing was sent.
    throw new ApiError(
      'source',
      `${r.source} ${howChanged(r.source_bytes, now.size)}; it is sent once it stops changing`,
    );
  }
  let hash = r.source_hash;
  if (hash === null) {
    await lengthStillEstimated(job);
    hash = await ctx.store.hashes.of(r.source, now.size, now.mtimeMs);
    job.record({ source_hash: hash });
  }
  return { size: now.size, mtimeMs: now.mtimeMs, hash };
}

/**
 * A job keeps its chosen track as a number: in a file exported again, tracks may come in another order and
 * the number name another sound (the commentary for the French), dubbed and paid for in its place. A file
 * changed under a track other than the first is not sent; added again, its tracks are read again.
 */
function chosenTrackStillKnown(source: string, track: string, was: number | null, now: number): void {
  if (track === 'first') return;
  throw new DubdeskError(
    'conflict',
    `${source} ${howChanged(was, now)}, and its sound tracks may have moved: track ${track} may no longer be the one chosen; nothing was sent`,
    { remedy: 'Add it again and choose its audio track.' },
  );
}

/** What became of a source since its add, in words: another length, or the same one written again. */
function howChanged(was: number | null, now: number): string {
  if (was === now) return 'was written again since it was added (same size, a new modification time)';
  return `changed since it was added (now ${now} bytes${was === null ? '' : `, was ${was}`})`;
}

/**
 * A file whose content is new to the job (changed since its add, or never hashed) is read again for its
 * length: what is sent is cut at the job's length, and the user agreed to the cost of that length. As long
 * or shorter for the same credits, the job takes the new length; longer, it is not sent: a longer export
 * costs more than the estimate the user saw.
 */
async function lengthStillEstimated(job: LeasedJob): Promise<void> {
  const r = job.row;
  const probed = await probeFile(r.source).catch(() => null);
  const seconds = probed?.durationSeconds ?? null;
  if (seconds === null || r.duration === null || seconds === r.duration) return;
  const studio = r.studio === 1;
  const [was, now] = [creditsFor(r.duration, studio), creditsFor(seconds, studio)];
  if (now > was)
    throw new DubdeskError(
      'conflict',
      `${r.source} changed since it was added: it now plays ${seconds.toFixed(1)} s, ${now} credits a language instead of ${was}; nothing was sent`,
      { remedy: 'Add it again to see what it costs now, then dub it.' },
    );
  job.record({ duration: seconds });
}

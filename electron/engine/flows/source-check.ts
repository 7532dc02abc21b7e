import { stat } from 'node:fs/promises';
import type { SourceIdentity } from '../api/file-body';
import { ApiError } from '../api/errors';
import type { LeasedJob, StepContext } from './context';

/**
 * The source just before it is sent: still the size and modification time recorded for the job, else the
 * job records what the file is now and waits for it to settle (nothing is sent). A file whose identity was
 * reset that way (or never known) is hashed once here, when it has stopped changing. What this returns goes
 * with the upload, which checks it again before the file's last bytes leave.
 */
export async function sourceBeforeUpload(
  ctx: StepContext,
  job: LeasedJob,
): Promise<SourceIdentity | undefined> {
  const r = job.row;
  if (r.source_kind !== 'file') return undefined;
  const now = await stat(r.source).catch(() => null);
  if (!now) return undefined; // assertSourceFile names a file that is gone
  const sameTime = r.source_mtime !== null && Math.round(now.mtimeMs) === Math.round(r.source_mtime);
  if (now.size !== r.source_bytes || !sameTime) {
    job.record({ source_bytes: now.size, source_mtime: now.mtimeMs, source_hash: null });
    // Waited for as any file still being written is (the job says why); nothing was sent.
    throw new ApiError(
      'source',
      `${r.source} changed since it was added (now ${now.size} bytes); it is sent once it stops changing`,
    );
  }
  let hash = r.source_hash;
  if (hash === null) {
    hash = await ctx.store.hashes.of(r.source, now.size, now.mtimeMs);
    job.record({ source_hash: hash });
  }
  return { size: now.size, mtimeMs: now.mtimeMs, hash };
}

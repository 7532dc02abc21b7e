import type { ContractError } from '../../../shared/contract/errors';
import type { WatchFileRow, WatchFolderRow } from '../db/watch';
import type { WatchEnv } from './env';
import { completeness } from './complete';
import type { Completeness } from './completeness';
import { hashForTaking, look } from './file-check';

const BACKOFF_CAP_MS = 5 * 60_000;
/**
 * How long a file whose container cannot be checked (Ogg, FLAC, a live Matroska…) must stay unchanged:
 * 20 settle times, a minute by default, which a copy stalled on a network share or a USB drive does not
 * beat as easily as the settle time's few seconds.
 */
export const uncheckedQuietMs = (settleMs: number): number => settleMs * 20;

const minutes = (ms: number) => {
  const m = ms / 60_000;
  return m >= 1 ? `${Math.round(m)} minute${Math.round(m) === 1 ? '' : 's'}` : `${Math.round(ms / 1000)} s`;
};

/**
 * Not ready, or not takeable: wait and look again later (the wait doubles each time), and after the
 * folder's maximum wait, show it as needing attention. Never final: a change to the file starts over.
 * `escalate: false` for waits that are nobody's fault (an earlier version still being dubbed).
 */
export function waitAgain(
  env: WatchEnv,
  row: WatchFileRow,
  problem: ContractError,
  now: number,
  escalate = true,
): void {
  const attempts = row.attempts + 1;
  if (escalate && now - row.wait_since >= env.timing.maxWaitMs) {
    env.watch.files.update(
      row.id,
      row.rev,
      {
        status: 'attention',
        attempts,
        problem: {
          ...problem,
          message: `${problem.message} (still so after ${minutes(now - row.wait_since)} of waiting)`,
        },
        next_check_at: null,
      },
      now,
    );
    env.warn({ path: row.path, problem: problem.message }, 'watched file needs attention');
  } else {
    const delay = Math.min(env.timing.settleMs * 2 ** Math.min(attempts, 20), BACKOFF_CAP_MS);
    env.watch.files.update(
      row.id,
      row.rev,
      { status: 'waiting', attempts, problem, next_check_at: now + Math.max(delay, env.timing.settleMs) },
      now,
    );
  }
}

/**
 * The file is no longer there (or no longer a regular file) before it was taken: forget it. A new version
 * of a taken path gives the path back to the version that was taken.
 */
export function forget(env: WatchEnv, row: WatchFileRow, now: number): void {
  env.store.tx(() => {
    if (!env.watch.files.delete(row.id, row.rev)) return;
    if (row.version > 1) {
      const previous = env.watch.files.previousVersion(row.folder_id, row.path);
      if (previous) env.watch.files.update(previous.id, previous.rev, { current: 1 }, now);
    }
  });
}

/**
 * A settling or waiting file's time has come: still growing (look again after the settle time), gone
 * (forget it), or stable for the settle time: then it is hashed (`true`: the caller runs `hashAndMark`).
 */
export async function check(
  env: WatchEnv,
  folder: WatchFolderRow,
  row: WatchFileRow,
  now = Date.now(),
): Promise<boolean> {
  const seen = await look(row.path);
  if (seen.kind === 'missing' || seen.kind === 'other') {
    forget(env, row, now);
    return false;
  }
  if (seen.kind === 'error') {
    waitAgain(env, row, seen.problem, now);
    return false;
  }
  const { settleMs } = env.timing;
  if (seen.size !== row.size || seen.mtimeMs !== row.mtime_ms) {
    if (now - row.wait_since >= env.timing.maxWaitMs) {
      waitAgain(
        env,
        { ...row, size: seen.size, mtime_ms: seen.mtimeMs },
        {
          code: 'disk',
          message: `${row.path} keeps changing: it never stopped growing`,
          remedy: 'Once whatever writes it has finished, it is taken by itself.',
        },
        now,
      );
      return false;
    }
    env.watch.files.update(
      row.id,
      row.rev,
      {
        size: seen.size,
        mtime_ms: seen.mtimeMs,
        status: 'settling',
        changed_at: now,
        next_check_at: now + settleMs,
        hash: null,
      },
      now,
    );
    return false;
  }
  if (now - row.changed_at < settleMs) {
    env.watch.files.update(row.id, row.rev, { next_check_at: row.changed_at + settleMs }, now);
    return false;
  }
  if (seen.size === 0) {
    waitAgain(
      env,
      row,
      {
        code: 'not-media',
        message: `${row.path} is empty (0 bytes): still being created?`,
        remedy: 'It is taken once it has content.',
      },
      now,
    );
    return false;
  }
  // Quiet is not done: a copy that stalls half-way (a network share, a USB drive) is quiet for a while too.
  const whole = await completeness(row.path).catch((): Completeness => ({ whole: 'unknown' }));
  if (whole.whole === false) {
    waitAgain(
      env,
      row,
      {
        code: 'disk',
        message: `${row.path} is not whole yet: ${whole.why} (still being copied?)`,
        remedy: 'It is taken by itself once the copy has finished.',
      },
      now,
    );
    return false;
  }
  // A format whose end cannot be read from it: a longer quiet period instead.
  if (whole.whole === 'unknown' && now - row.changed_at < uncheckedQuietMs(settleMs)) {
    env.watch.files.update(
      row.id,
      row.rev,
      { next_check_at: row.changed_at + uncheckedQuietMs(settleMs) },
      now,
    );
    return false;
  }
  // Hashed before and unchanged since (it waited for an earlier version): straight back to planning.
  if (row.hash && row.preset_version === folder.preset_version) {
    env.watch.files.update(row.id, row.rev, { status: 'ready', next_check_at: null }, now);
    return false;
  }
  // Not due again while it is hashed; should the hash never finish (this process stops), the next watcher
  // of the folder looks at every settling file at once.
  return env.watch.files.update(row.id, row.rev, { next_check_at: now + Math.max(settleMs, 60_000) }, now);
}

/** Hashes a stable file; `ready` if it did not change meanwhile, settling again if it did. */
export async function hashAndMark(
  env: WatchEnv,
  folder: WatchFolderRow,
  row: WatchFileRow,
  signal: AbortSignal,
): Promise<void> {
  const hashed = await hashForTaking(row.path, folder.path, signal);
  const now = Date.now();
  const fresh = env.watch.files.get(row.id);
  if (!fresh || fresh.rev !== row.rev) return; // someone moved it on meanwhile
  if ('code' in hashed) {
    if (hashed.code === 'not-found' || hashed.code === 'not-media') forget(env, fresh, now);
    else waitAgain(env, fresh, hashed, now);
    return;
  }
  // Written to while it was read (whatever the open handle said): the hash is of no version at all.
  const after = await look(row.path);
  const still = after.kind === 'file' && after.size === hashed.size && after.mtimeMs === hashed.mtimeMs;
  if (!still || hashed.size !== fresh.size || hashed.mtimeMs !== fresh.mtime_ms) {
    env.watch.files.update(
      fresh.id,
      fresh.rev,
      {
        size: after.kind === 'file' ? after.size : hashed.size,
        mtime_ms: after.kind === 'file' ? after.mtimeMs : hashed.mtimeMs,
        status: 'settling',
        changed_at: now,
        next_check_at: now + env.timing.settleMs,
      },
      now,
    );
    return;
  }
  env.watch.files.update(
    fresh.id,
    fresh.rev,
    { status: 'ready', hash: hashed.hash, preset_version: folder.preset_version, next_check_at: null },
    now,
  );
}

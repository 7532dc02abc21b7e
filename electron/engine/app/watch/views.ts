import { relative } from 'node:path';
import type { WatchFile, WatchFolder } from '../../../../shared/contract/watch';
import type { WatchFileViewRow, WatchFolderRow, WatchStore } from '../../db/watch';
import { outRootOf } from '../../watcher/env';
import { watcherAlive } from '../../watcher/watcher-loop';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const HOUR_MS = 3_600_000;

export const INACTIVE_MESSAGE =
  'not watched right now: no Dubdesk is working the queue (open the app, or run `dubdesk run` or `dubdesk serve`); files that arrive meanwhile are found when one starts';

/** A folder as every face sees it. `watchedHere`: this process runs the watcher (no heartbeat needed). */
export function folderView(
  watch: WatchStore,
  row: WatchFolderRow,
  watchedHere: boolean,
  now = Date.now(),
): WatchFolder {
  const c = watch.counts.get(row.id);
  const awaiting = watch.links.awaiting(row.id);
  const alive = watchedHere || watcherAlive(watch.beat.lastBeat(), now);
  const status = row.paused ? 'paused' : alive ? row.status : 'inactive';
  const message = status === 'inactive' ? INACTIVE_MESSAGE : status === 'paused' ? null : row.status_message;
  return {
    id: row.id,
    path: row.path,
    preset: row.preset,
    presetVersion: row.preset_version,
    outDir: outRootOf(row),
    paused: row.paused === 1,
    status,
    statusMessage: message,
    polled: row.polled === 1,
    pollReason: row.poll_reason,
    lastActivityAt: iso(row.last_activity_at),
    lastScanAt: iso(row.last_scan_at),
    counts: {
      waiting: c.settling + c.waiting,
      queued: c.queued,
      working: c.working,
      done: c.done,
      failed: c.failed,
      canceled: c.canceled,
      duplicates: c.duplicate,
      attention: c.attention,
      awaitingApproval: c['awaiting-approval'],
    },
    awaitingCredits: awaiting.credits,
    awaitingUnknownLength: awaiting.unknownLength,
    creditsLastHour: watch.links.creditsSince(row.id, now - HOUR_MS),
    creditsPerHour: 3600 * row.preset.to.length * (row.preset.studio ? 2 : 1),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function fileView(row: WatchFileViewRow, folderPath: string, jobIds: readonly number[]): WatchFile {
  const pending = row.status === 'settling' || row.status === 'waiting';
  return {
    id: row.id,
    folderId: row.folder_id,
    path: row.path,
    name: relative(folderPath, row.path),
    version: row.version,
    status: row.shown,
    problem: row.problem,
    jobIds: [...jobIds],
    bytes: row.size,
    durationSeconds: row.duration,
    credits: row.credits,
    duplicateOf: row.duplicate_path,
    movedTo: row.moved_to,
    gone: row.gone === 1,
    firstSeenAt: new Date(row.first_seen_at).toISOString(),
    takenAt: iso(row.taken_at),
    nextCheckAt: pending ? iso(row.next_check_at) : null,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

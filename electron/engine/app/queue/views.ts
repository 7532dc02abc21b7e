import { creditsFor } from '../../../../shared/credits';
import { jobProgress } from '../../../../shared/progress';
import {
  isTerminal,
  type JobDetail,
  type JobOutputType,
  type JobView,
  type Waiting,
} from '../../../../shared/contract/jobs';
import type { HistoryRow, JobRow, OutputRow } from '../../db/jobs';
import { qcOf } from '../../db/job-store/deliver-values';
import { parseSelection } from '../../flows/fetch-outputs';

export interface Transfer {
  bytesPerSecond: number | null;
  etaSeconds: number | null;
  percent: number | null;
}

/** What a view needs to know about the engine now, to say why a job is not moving. */
export interface ViewContext {
  service: string;
  now: number;
  /** The user paused the whole queue: downloads do not start. */
  queuePaused?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

function waitingOf(row: JobRow, ctx: ViewContext): Waiting | null {
  if (isTerminal(row.state)) return null;
  if (row.service && row.service !== ctx.service && row.state !== 'paused') {
    const where = row.service === 'sandbox' ? 'the built-in sandbox' : row.service;
    return {
      code: 'other-service',
      message: `made on ${where}: switch back to it to finish this job`,
      retryAt: null,
      attempt: row.attempts,
    };
  }
  // The service has no pause: a dub it finished while Dubdesk was paused is charged, and waits to download.
  const pausedDownload =
    row.step === 'fetch' &&
    (row.state === 'paused' || (row.state === 'downloading' && ctx.queuePaused === true && !row.lease_token));
  if (pausedDownload)
    return {
      code: 'download-paused',
      message: `done at the service, download paused${row.state === 'paused' ? '' : ' (the queue is paused)'}`,
      retryAt: null,
      attempt: row.attempts,
    };
  if (!row.waiting) return null;
  const code = (row.waiting_code ?? 'retry') as Waiting['code'];
  return {
    code,
    message: row.waiting,
    // A job waiting for another one is woken when that one moves on: its clock is only a safety net.
    retryAt: code !== 'first-upload' && row.next_run_at > ctx.now ? iso(row.next_run_at) : null,
    attempt: row.attempts,
  };
}

export function toView(
  row: JobRow,
  outputs: readonly OutputRow[],
  ctx: ViewContext,
  transfer?: Transfer,
): JobView {
  const moving = row.state === 'uploading' || row.state === 'downloading';
  return {
    id: row.id,
    source: row.source,
    sourceKind: row.source_kind,
    sourceName: row.source_name,
    destLang: row.dest_lang,
    sourceLang: row.source_lang,
    api: row.api,
    studio: row.studio === 1,
    state: row.state,
    remoteId: row.remote_id,
    progress: jobProgress(
      row.state,
      row.step,
      moving && transfer?.percent != null ? transfer.percent : row.progress,
    ),
    waiting: waitingOf(row, ctx),
    error: row.error
      ? {
          code: row.error_code ?? 'internal',
          message: row.error,
          ...(row.error_remedy ? { remedy: row.error_remedy } : {}),
        }
      : null,
    durationSeconds: row.duration,
    estimatedCredits: row.duration === null ? null : creditsFor(row.duration, row.studio === 1),
    measuredDuration: row.measured_duration,
    creditsCharged: row.credits_charged,
    outDir: row.out_dir,
    outputs: outputs
      .filter((o) => o.done)
      .map((o) => ({ type: o.type as JobOutputType, path: o.path, bytes: o.bytes ?? 0 })),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    completedAt: row.completed_at === null ? null : iso(row.completed_at),
    bytesPerSecond: moving ? (transfer?.bytesPerSecond ?? null) : null,
    etaSeconds: moving ? (transfer?.etaSeconds ?? null) : null,
    watchFolderId: row.watch_folder_id,
    ...(row.audio_track !== 'first' ? { audioTrack: row.audio_track } : {}),
    copiedFrom: row.copied_from,
    qc: row.state === 'completed' ? qcOf(row) : null,
    delivering: row.state === 'completed' && row.deliver !== null && row.qc === null,
  };
}

export function toDetail(view: JobView, row: JobRow, history: readonly HistoryRow[]): JobDetail {
  return {
    ...view,
    history: history.map((h) => ({
      at: iso(h.at),
      from: h.from_state,
      to: h.to_state,
      event: h.event,
      reason: h.reason,
    })),
    outputsWanted: parseSelection(row.outputs_wanted),
    attempts: row.attempts,
    abandonedRemoteIds: row.abandoned_remote_ids,
    sourceBytes: row.source_bytes,
    sourceType: row.source_type,
    send: row.send,
  };
}

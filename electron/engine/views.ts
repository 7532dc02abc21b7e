import type { OutputType } from '../../shared/api/common';
import { creditsFor } from '../../shared/credits';
import type { JobView } from '../../shared/domain';
import type { JobRow, OutputRow } from './db/jobs';

export interface Transfer {
  bytesPerSecond: number | null;
  etaSeconds: number | null;
  percent: number | null;
}

export function toView(row: JobRow, outputs: readonly OutputRow[], transfer?: Transfer): JobView {
  const live = row.state === 'uploading' || row.state === 'downloading';
  return {
    id: row.id,
    source: row.source,
    sourceName: row.source_name,
    destLang: row.dest_lang,
    sourceLang: row.source_lang,
    api: row.api,
    studio: row.studio === 1,
    state: row.state,
    remoteId: row.remote_id,
    progress: live && transfer?.percent != null ? transfer.percent : row.progress,
    waiting: row.waiting,
    error: row.error,
    durationSeconds: row.duration,
    estimatedCredits: row.duration === null ? null : creditsFor(row.duration, row.studio === 1),
    measuredDuration: row.measured_duration,
    creditsCharged: row.credits_charged,
    outDir: row.out_dir,
    outputs: outputs
      .filter((o) => o.done)
      .map((o) => ({ type: o.type as OutputType, path: o.path, bytes: o.bytes ?? 0 })),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    bytesPerSecond: live ? (transfer?.bytesPerSecond ?? null) : null,
    etaSeconds: live ? (transfer?.etaSeconds ?? null) : null,
  };
}

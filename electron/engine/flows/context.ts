import type { JobPatch, JobRow, JobStore } from '../db/jobs';
import type { Downloads } from '../api/download';
import type { LegacyClient } from '../api/legacy';
import type { V1Client } from '../api/v1';
import type { V2Client } from '../api/v2';

export interface Clients {
  v2: V2Client;
  v1: V1Client;
  /** Null when no legacy root is configured. */
  legacy: LegacyClient | null;
  downloads: Downloads;
}

/** A job a worker holds under its lease: every write goes through the lease check and keeps `row` current. */
export class LeasedJob {
  constructor(
    private readonly store: JobStore,
    public row: JobRow,
    readonly token: string,
    private readonly onChange: (row: JobRow) => void,
  ) {}

  patch(patch: JobPatch): void {
    this.store.patch(this.row.id, this.token, patch);
    this.row = { ...this.row, ...patch };
    this.onChange(this.row);
  }
}

export interface StepContext {
  store: JobStore;
  clients: Clients;
  signal: AbortSignal;
  /** Transfer progress of the current upload or download, for speed and ETA. */
  progress: (jobId: number, transferred: number, total: number | null) => void;
}

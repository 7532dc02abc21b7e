import type { JobView } from '../../../../shared/contract/jobs';
import type { JobRow, JobStore } from '../../db/jobs';
import type { TransferMeters } from './meters';
import { toView, type ViewContext } from './views';

/** Jobs as the faces see them: the row, its outputs, and its transfer's speed. */
export class JobViews {
  constructor(
    private readonly store: JobStore,
    private readonly meters: TransferMeters,
    /** The service jobs are made for now (a job of another one says so). */
    private readonly serviceId: () => string,
    /** Whether the user paused the whole queue (downloads wait then). */
    private readonly queuePaused: () => boolean = () => false,
  ) {}

  private context(): ViewContext {
    return { service: this.serviceId(), now: Date.now(), queuePaused: this.queuePaused() };
  }

  view(row: JobRow): JobView {
    return toView(row, this.store.outputs.of(row.id), this.context(), this.meters.get(row.id));
  }

  views(rows: readonly JobRow[]): JobView[] {
    const outputs = this.store.outputs.ofJobs(rows.map((r) => r.id));
    const ctx = this.context();
    return rows.map((r) => toView(r, outputs.get(r.id) ?? [], ctx, this.meters.get(r.id)));
  }
}

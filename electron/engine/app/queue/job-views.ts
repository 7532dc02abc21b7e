import { isTerminal, type JobView } from '../../../../shared/contract/jobs';
import type { JobRow, JobStore } from '../../db/jobs';
import type { TransferReadings } from './rates-in';
import { toView, type ViewContext } from './views';

/** Jobs as the faces see them: the row, its outputs, and its transfer's speed. */
export class JobViews {
  /**
   * The most each unfinished job has shown: an upload sent again from its start (a retry after a cut) or a
   * dub the service took back does not take its number back.
   */
  private readonly shown = new Map<number, number>();

  constructor(
    private readonly store: JobStore,
    private readonly meters: Pick<TransferReadings, 'get'>,
    /** The service jobs are made for now (a job of another one says so). */
    private readonly serviceId: () => string,
    /** Whether the user paused the whole queue (downloads wait then). */
    private readonly queuePaused: () => boolean = () => false,
  ) {}

  private context(): ViewContext {
    return { service: this.serviceId(), now: Date.now(), queuePaused: this.queuePaused() };
  }

  view(row: JobRow): JobView {
    return this.grown(toView(row, this.store.outputs.of(row.id), this.context(), this.meters.get(row.id)));
  }

  views(rows: readonly JobRow[]): JobView[] {
    const outputs = this.store.outputs.ofJobs(rows.map((r) => r.id));
    const ctx = this.context();
    return rows.map((r) => this.grown(toView(r, outputs.get(r.id) ?? [], ctx, this.meters.get(r.id))));
  }

  private grown(view: JobView): JobView {
    if (isTerminal(view.state)) {
      this.shown.delete(view.id);
      return view;
    }
    const most = Math.max(view.progress, this.shown.get(view.id) ?? 0);
    this.shown.set(view.id, most);
    return most === view.progress ? view : { ...view, progress: most };
  }
}

import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { JobStore } from '../../db/jobs';

export interface OrderDeps {
  store: JobStore;
  /** The list's order changed: faces fetch what they show again. */
  listChanged(): void;
  /** The worker looks at the queue again (the next upload may be another one now). */
  wake(): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** The queue's order as a user steers it: move to the top, the bottom, or before another job. */
export class QueueOrderService {
  constructor(private readonly deps: OrderDeps) {}

  handlers(): Pick<DubdeskHandlers, 'moveJobs'> {
    return {
      moveJobs: ({ ids, to }) => {
        const result = this.deps.store.order.move(ids, to);
        if (result.moved.length) {
          this.deps.info({ moved: result.moved.length, to }, 'jobs moved in the queue');
          this.deps.listChanged();
          this.deps.wake();
        }
        return result;
      },
    };
  }
}

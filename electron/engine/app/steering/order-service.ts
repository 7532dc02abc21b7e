import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { JobStore } from '../../db/jobs';

export interface OrderDeps {
  store: JobStore;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The queue's order as a user steers it: move to the top, the bottom, or before another job. The move's
 * commit tells the faces (list again) and the worker (the next upload may be another one) on the feed.
 */
export class QueueOrderService {
  constructor(private readonly deps: OrderDeps) {}

  handlers(): Pick<DubdeskHandlers, 'moveJobs'> {
    return {
      moveJobs: ({ ids, to }) => {
        const result = this.deps.store.order.move(ids, to);
        if (result.moved.length)
          this.deps.info({ moved: result.moved.length, to }, 'jobs moved in the queue');
        return result;
      },
    };
  }
}

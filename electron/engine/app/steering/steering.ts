import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { EngineOptions } from '../options';
import type { EngineLog } from '../../log/log';
import type { JobStore } from '../../db/jobs';
import type { EventHub } from '../event-hub';
import type { TotalsService } from '../totals/totals-service';
import type { AccountService } from '../account/account-service';
import { checkLanguages } from '../batches/checks';
import { systemExecutor } from '../when-done/executor';
import { liveJobs } from '../when-done/live-jobs';
import { WhenDoneService } from '../when-done/when-done-service';
import { QueueOrderService } from './order-service';
import { PresetsService } from './presets-service';
import type { SpendingService } from './spending-service';

/** What a user steers the queue with: its order, named presets, spending and what happens when it is done. */
export interface Steering {
  order: QueueOrderService;
  presets: PresetsService;
  spending: SpendingService;
  whenDone: WhenDoneService;
}

type Say = (fields: Record<string, unknown>, message: string) => void;

export interface SteeringParts {
  store: JobStore;
  hub: EventHub;
  log: EngineLog;
  info: Say;
  warn: Say;
  totals: TotalsService;
  spending: SpendingService;
  account: AccountService;
  /** The queue's own listing (the batch summary is made of the live jobs). */
  listJobs: DubdeskHandlers['listJobs'];
  options: Pick<EngineOptions, 'cwd' | 'whenDoneExecutor' | 'whenDoneCountdownMs'>;
}

export function steeringServices(parts: SteeringParts): Steering {
  const { store, hub, info, warn, log, totals, spending, account, listJobs, options } = parts;
  const order = new QueueOrderService({ store, info });
  const presets = new PresetsService({
    store,
    emit: (b) => hub.emit(b),
    cwd: options.cwd ?? null,
    warn,
    checkLanguages: async (o) => checkLanguages(o, (await account.liveCodes()).codes),
  });
  const whenDone = new WhenDoneService({
    executor: options.whenDoneExecutor ?? systemExecutor(),
    jobs: () => liveJobs(listJobs),
    totals: async () => totals.totals(),
    changed: (state) => hub.emit({ type: 'when-done', state }),
    notify: (summary) => hub.emit({ type: 'batch-done', tally: summary.tally }),
    log: (message) => log.logger.info({}, message),
    // The totals the faces hear (throttled) carry each count of open jobs, in order.
    listen: (openJobs) =>
      hub.subscribe((e) => {
        if (e.type === 'totals') openJobs(e.totals.left);
      }),
    ...(options.whenDoneCountdownMs !== undefined ? { countdownMs: options.whenDoneCountdownMs } : {}),
  });
  return { order, presets, spending, whenDone };
}

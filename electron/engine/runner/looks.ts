import type { JobStore } from '../db/jobs';
import type { QueuePause } from './runner-types';

/**
 * What each turn of the runner's loop looks at first, read together in one transaction (see
 * `JobStore.read`; module functions, so the transaction wrapper is made once).
 */
export function lookAround(store: JobStore, service: string, queuePause: () => QueuePause | null) {
  return {
    paused: queuePause(),
    due: {
      submit: store.leases.nextDueAt(service, 'submit'),
      fetch: store.leases.nextDueAt(service, 'fetch'),
    },
    // Canceled and paused jobs' dubs the service may still charge are polled too (never waited for: see lookAfter).
    // So are jobs canceled while their create was under way, until it is known whether a dub was made.
    tracked: store.leases.trackingCount(service),
    followed: store.leases.followedCount(service),
    canceledCreates: store.canceledCreates.count(service),
  };
}

/**
 * What it looks at after claiming and polling: when to wake, and, once idle, whether the run is over. Only
 * the steps with a free worker (`withRoom`) give a time to wake at: a job due behind busy workers is claimed
 * when one of them ends (which wakes the loop), not looked at again every few milliseconds meanwhile.
 */
export function lookAfter(
  store: JobStore,
  service: string,
  idleUntilDone: boolean,
  paused: QueuePause | null,
  withRoom: { submit: boolean; fetch: boolean },
) {
  const due = (step: 'submit' | 'fetch') => (withRoom[step] ? store.leases.nextDueAt(service, step) : null);
  const [submit, fetch] = [due('submit'), due('fetch')];
  return {
    nextDue: submit === null ? fetch : fetch === null ? submit : Math.min(submit, fetch),
    unfinished: idleUntilDone ? store.leases.unfinishedCount(service) : null,
    /**
     * Asked only when paused: out of credits, the dubs the service is still making or Dubdesk still
     * downloading; paused by the user, the dubs the service is still making (downloads wait for resume).
     */
    inFlight: !idleUntilDone
      ? null
      : paused?.reason === 'credits'
        ? store.leases.trackingCount(service) + store.leases.liveInStep('fetch', service)
        : paused?.reason === 'user'
          ? store.leases.trackingCount(service)
          : null,
  };
}

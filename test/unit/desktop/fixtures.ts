/** Queue totals and job views as the engine reports them, for the desktop shell's unit tests. */
import { emptyCounts, type QueueTotals } from '../../../shared/contract/queue';
import type { JobView } from '../../../shared/contract/jobs';

export function totals(
  patch: Omit<Partial<QueueTotals>, 'counts'> & { counts?: Partial<QueueTotals['counts']> } = {},
): QueueTotals {
  const { counts, ...rest } = patch;
  return {
    counts: { ...emptyCounts(), ...counts },
    total: 0,
    history: 0,
    left: 0,
    bytesPerSecond: null,
    etaSeconds: null,
    creditsCommitted: 0,
    creditsCharged: 0,
    balance: null,
    creditsShort: null,
    offline: null,
    storageFull: null,
    packageDiskFull: null,
    paused: null,
    running: true,
    resumedAfterCrash: 0,
    ...rest,
  };
}

export function job(id: number, state: JobView['state'], patch: Partial<JobView> = {}): JobView {
  return {
    id,
    source: `/v/clip-${id}.mp4`,
    sourceKind: 'file',
    sourceName: `clip-${id}.mp4`,
    destLang: 'es',
    sourceLang: 'auto',
    api: 'v2',
    studio: false,
    state,
    remoteId: null,
    progress: 0,
    waiting: null,
    error: state === 'failed' ? { code: 'remote-failed', message: 'the dub failed on the service' } : null,
    durationSeconds: 3,
    estimatedCredits: 3,
    measuredDuration: null,
    creditsCharged: null,
    outDir: '/v',
    outputs: [],
    createdAt: '',
    updatedAt: '',
    completedAt: null,
    bytesPerSecond: null,
    etaSeconds: null,
    watchFolderId: null,
    ...patch,
  };
}

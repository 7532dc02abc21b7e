import type { JobView } from '../../shared/contract/jobs';

/** A finished job as the contract shows it: #7, `name` to Spanish; `over` changes any field. */
export const jobView = (name: string, over: Partial<JobView> = {}): JobView => ({
  id: 7,
  source: `/videos/${name}`,
  sourceKind: 'file',
  sourceName: name,
  destLang: 'es',
  sourceLang: 'auto',
  api: 'v2',
  studio: false,
  state: 'completed',
  remoteId: 'd1',
  progress: 100,
  waiting: null,
  error: null,
  durationSeconds: 3,
  estimatedCredits: 3,
  measuredDuration: 3,
  creditsCharged: 3,
  outDir: '/out',
  outputs: [
    { type: 'translated_mp4', path: `/out/${name.replace(/\.mp4$/, '')}.es.mp4`, bytes: 1 },
    { type: 'translated_subtitle', path: `/out/${name.replace(/\.mp4$/, '')}.es.vtt`, bytes: 1 },
  ],
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
  completedAt: '2026-11-22T00:00:00.000Z',
  bytesPerSecond: null,
  etaSeconds: null,
  watchFolderId: null,
  ...over,
});

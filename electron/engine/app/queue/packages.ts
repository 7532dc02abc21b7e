import { DubdeskError } from '../../../../shared/contract/errors';
import type { PackageNowRequest, PackageView } from '../../../../shared/contract/jobs';
import type { JobStore } from '../../db/jobs';
import { deliverOf, languagesOf, type PackageRow } from '../../db/job-store/deliver-values';

const iso = (ms: number) => new Date(ms).toISOString();

/** A source's package as the faces see it. */
export function packageView(p: PackageRow): PackageView {
  return {
    format: p.format,
    state: p.state,
    path: p.path,
    languages: languagesOf(p.languages),
    error: p.error
      ? p.state === 'failed'
        ? {
            code: 'internal',
            message: p.error,
            remedy: 'Fix what it says: the next run makes it, or Package now (nothing is charged).',
          }
        : {
            code: 'disk',
            message: p.error,
            remedy: 'It is made by itself once there is room (nothing is charged).',
          }
      : null,
    updatedAt: iso(p.updated_at),
  };
}

/** The latest package of a source (one per output folder), or null when none was asked for. */
export function sourcePackage(store: JobStore, source: string): PackageView | null {
  const latest = store.packages.ofSource(source)[0];
  return latest ? packageView(latest) : null;
}

/**
 * Package now: the source's finished languages (in the folder its latest dub wrote to) go into one file at
 * once, in the format asked for, else the one its batch or last package chose, else MKV.
 */
export function packageNow(store: JobStore, req: PackageNowRequest): PackageView {
  const jobs = store.packages.sourceJobs(req.source);
  const finished = jobs.filter((j) => j.state === 'completed');
  const latest = finished.at(-1);
  if (!latest)
    throw new DubdeskError('not-found', `no finished dub of ${req.source} to package`, {
      remedy: 'Package now takes the languages of a source that have finished; wait for one, or add it.',
      field: 'source',
    });
  const before = store.packages.of(req.source, latest.out_dir);
  const choice = deliverOf(latest);
  const format =
    req.format ?? before?.format ?? (choice && choice.package !== 'none' ? choice.package : 'mkv');
  const defaultAudio = before?.default_audio ?? choice?.defaultAudio ?? 'original';
  store.packages.want(req.source, latest.out_dir, { package: format, defaultAudio }, latest.naming, true);
  const row = store.packages.of(req.source, latest.out_dir);
  if (!row) throw new Error('the package was not recorded');
  return packageView(row);
}

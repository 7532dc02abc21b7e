import type { BatchRequest, FileEstimate } from '../../../../shared/contract/batches';
import type { ContractError } from '../../../../shared/contract/errors';
import type { NewJob } from '../../db/jobs';
import type { ProbeOptions } from '../../media/probe';
import { absolutePath } from '../paths';
import { expandInputs, type OwnOutputs } from './expand-inputs';
import { fanOut } from './fan-out';
import { planSends, type SendPlan } from './send-plan';

export interface Planned {
  files: FileEstimate[];
  jobs: NewJob[];
  refused: { input: string; error: ContractError }[];
  /** What each file sends: its sound alone or the whole file. */
  sends: SendPlan;
}

/** Probes every input (a few at a time) and makes one job per good source and target language. */
export async function planBatch(
  req: BatchRequest,
  opts: {
    service: string;
    /** Where relative paths start: the CLI's working folder; null for a face that has none. */
    cwd: string | null;
    watchFolderId?: number | null;
    ownOutputs?: OwnOutputs;
    /** Real media whose length cannot be read: refused (the default), or planned with an unknown length. */
    lengthUnknown?: ProbeOptions['lengthUnknown'];
  },
): Promise<Planned> {
  const { files, sources, refused } = await expandInputs(req, opts.cwd, opts.ownOutputs, {
    lengthUnknown: opts.lengthUnknown ?? 'refuse',
  });
  const outDir = req.outDir ? absolutePath(req.outDir, opts.cwd, 'outDir') : null;
  const sends = await planSends(sources, req);
  const jobs = fanOut(sources, req, {
    service: opts.service,
    outDir,
    cwd: opts.cwd,
    sends: sends.bySource,
    ...(opts.watchFolderId !== undefined ? { watchFolderId: opts.watchFolderId } : {}),
  });
  const withSends = files.map((f) => (f.problem ? f : { ...f, sends: sends.bySource.get(f.input) ?? null }));
  return { files: withSends, jobs, refused, sends };
}

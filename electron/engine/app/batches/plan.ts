import type { BatchRequest, FileEstimate } from '../../../../shared/contract/batches';
import type { ContractError } from '../../../../shared/contract/errors';
import type { NewJob } from '../../db/jobs';
import type { ProbeOptions } from '../../media/probe';
import { absolutePath } from '../paths';
import { expandInputs, type OwnOutputs } from './expand-inputs';
import { fanOut } from './fan-out';

export interface Planned {
  files: FileEstimate[];
  jobs: NewJob[];
  refused: { input: string; error: ContractError }[];
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
  const jobs = fanOut(sources, req, {
    service: opts.service,
    outDir,
    cwd: opts.cwd,
    ...(opts.watchFolderId !== undefined ? { watchFolderId: opts.watchFolderId } : {}),
  });
  return { files, jobs, refused };
}

import type { ContractError } from '../../../../shared/contract/errors';
import type { JobStore } from '../../db/jobs';
import { copyOfResult } from '../../watcher/result-copy';
import { eachInSlices, lookInChunks, TimeSlices } from '../time-slices';
import type { Planned } from './plan';

/**
 * Files whose content is one of Dubdesk's results (`cp out/s6.de.mp4 "in/my result.mp4"`) are refused
 * unless dubbed again on purpose (`--again`): a result is never taken as a new source by accident. A result
 * named itself (`add out/s6.de.mp4`) is a dub of a dub asked for by name, and stays allowed.
 */
export async function refuseResultCopies(
  store: JobStore,
  planned: Planned,
  slices = new TimeSlices(),
): Promise<void> {
  // Asked per thousand files, not per file: its jobs (one per language) share the answer.
  const hashes = new Map<string, string>();
  await eachInSlices(planned.jobs, slices, (job) => {
    if (job.source_kind === 'file' && job.source_hash) hashes.set(job.source, job.source_hash);
  });
  const itself = new Set(
    await lookInChunks([...hashes.keys()], slices, (c) => [
      ...store.outputs.recorded(c),
      ...store.results.savedAmong(c),
    ]),
  );
  const results = new Map(
    await lookInChunks(
      [...hashes].flatMap(([path, hash]) => (itself.has(path) ? [] : [hash])),
      slices,
      (c) => [...store.results.resultsWithContents(c)],
    ),
  );
  const refused = new Map<string, ContractError>();
  for (const [path, hash] of hashes) {
    const result = itself.has(path) ? undefined : results.get(hash);
    if (result) refused.set(path, copyOfResult(path, result, 'add it with --again ("Dub again")'));
  }
  if (refused.size === 0) return;
  planned.jobs = planned.jobs.filter((job) => !refused.has(job.source));
  for (const [input, error] of refused) {
    planned.refused.push({ input, error });
    for (const f of planned.files) if (f.input === input) f.problem = error;
  }
}

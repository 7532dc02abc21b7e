import type Database from 'better-sqlite3';
import { copyOfResult, resultWithContent } from '../../db/result-contents';
import type { Planned } from './plan';

/**
 * Files whose content is one of Dubdesk's results (`cp out/s6.de.mp4 "in/my result.mp4"`) are refused
 * unless dubbed again on purpose (`--again`): a result is never taken as a new source by accident. A result
 * named itself (`add out/s6.de.mp4`) is a dub of a dub asked for by name, and stays allowed.
 */
export function refuseResultCopies(
  db: Database.Database,
  planned: Planned,
  isResultItself: (path: string) => boolean,
): void {
  const refused = new Map<string, ReturnType<typeof copyOfResult>>();
  planned.jobs = planned.jobs.filter((job) => {
    if (job.source_kind !== 'file' || !job.source_hash) return true;
    const known = refused.get(job.source);
    if (known) return false;
    if (isResultItself(job.source)) return true;
    const result = resultWithContent(db, job.source_hash);
    if (!result) return true;
    refused.set(job.source, copyOfResult(job.source, result, 'add it with --again ("Dub again")'));
    return false;
  });
  for (const [input, error] of refused) {
    planned.refused.push({ input, error });
    for (const f of planned.files) if (f.input === input) f.problem = error;
  }
}

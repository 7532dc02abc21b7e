import type Database from 'better-sqlite3';
import type { ContractError } from '../../../../shared/contract/errors';
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
  // Asked once per file: a file's jobs (one per language) share its answer.
  const decided = new Map<string, ContractError | null>();
  const refusal = (source: string, hash: string) => {
    if (isResultItself(source)) return null;
    const result = resultWithContent(db, hash);
    return result ? copyOfResult(source, result, 'add it with --again ("Dub again")') : null;
  };
  planned.jobs = planned.jobs.filter((job) => {
    if (job.source_kind !== 'file' || !job.source_hash) return true;
    let error = decided.get(job.source);
    if (error === undefined) decided.set(job.source, (error = refusal(job.source, job.source_hash)));
    return error === null;
  });
  const refused = [...decided].filter((d): d is [string, ContractError] => d[1] !== null);
  for (const [input, error] of refused) {
    planned.refused.push({ input, error });
    for (const f of planned.files) if (f.input === input) f.problem = error;
  }
}

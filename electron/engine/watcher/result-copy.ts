import { basename } from 'node:path';
import type { ContractError } from '../../../shared/contract/errors';
import type { WatchFileRow } from '../db/watch';
import type { WatchEnv } from './env';

/** What a copy of a result is told, in a watched folder and at `add` alike; `how`: the way to dub it anyway. */
export function copyOfResult(path: string, result: string, how: string): ContractError {
  return {
    code: 'conflict',
    message: `${path} is a copy of Dubdesk's result ${basename(result)}; not dubbed`,
    remedy: `To dub it on purpose (charged), ${how}.`,
  };
}

/**
 * A file whose content is one of Dubdesk's results (`cp out/s6.de.mp4 in/`): its results are never taken
 * as new sources, whatever their name or inode. It is set aside as needing attention, saying what it is
 * and how to dub it on purpose; `reprocess` takes it (charged). True when it was set aside.
 */
export function setAsideResultCopy(env: WatchEnv, row: WatchFileRow, now: number): boolean {
  if (row.forced || !row.hash) return false;
  const result = env.store.results.resultWithContent(row.hash);
  if (!result) return false;
  const problem = copyOfResult(
    row.path,
    result,
    `reprocess it (dubdesk watch --reprocess "${row.path}", or Dub again in the Watch screen)`,
  );
  if (env.watch.files.update(row.id, row.rev, { status: 'attention', problem, next_check_at: null }, now))
    env.info({ path: row.path, result }, 'a copy of a result was not taken');
  return true;
}

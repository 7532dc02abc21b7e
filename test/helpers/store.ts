import { JobStore } from '../../electron/engine/db/jobs';
import { openDatabase, type Db } from '../../electron/engine/db/open';

/** A job store whose connection the test keeps at hand, for SQL of its own (the engine's code never has it). */
export type TestStore = JobStore & { readonly db: Db };

/** The job store of `db`, with `db` beside it. */
export function storeOn(db: Db): TestStore {
  return Object.assign(new JobStore(db), { db });
}

/** The job store of the database at `file` (opened and migrated), with its connection beside it. */
export function storeAt(file: string): TestStore {
  return storeOn(openDatabase(file));
}

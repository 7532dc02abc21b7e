/** One contender for the queue lock, in its own process (see `contend`). */
import { join } from 'node:path';
import { openDatabase } from '../../electron/engine/db/open';
import { LockStore } from '../../electron/engine/db/lock-store';
import { QueueLock } from '../../electron/engine/runner/lock';
import { contender } from './contender';

const [home = ''] = process.argv.slice(2);
const db = openDatabase(join(home, 'dubdesk.db'));
await contender(() => {
  try {
    QueueLock.acquire(new LockStore(db), home);
    return 'held';
  } catch (e) {
    return `busy ${(e as { code?: string }).code ?? String(e)}`;
  }
});

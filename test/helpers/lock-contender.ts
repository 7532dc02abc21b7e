/**
 * One contender for the queue lock, in its own process: waits until the agreed instant, tries to take the
 * lock, says whether it got it, and keeps it a moment so the others really compete against a holder.
 */
import { join } from 'node:path';
import { openDatabase } from '../../electron/engine/db/open';
import { QueueLock } from '../../electron/engine/queue/lock';

const [home = '', startAt = '0'] = process.argv.slice(2);
const db = openDatabase(join(home, 'dubdesk.db'));
while (Date.now() < Number(startAt)) {
  /* spin: all contenders leave the line within the same millisecond */
}
try {
  QueueLock.acquire(db, home);
  process.stdout.write('held\n');
  setTimeout(() => process.exit(0), 500);
} catch (e) {
  process.stdout.write(`busy ${(e as { code?: string }).code ?? String(e)}\n`);
  process.exit(0);
}

/** One contender for a sandbox state directory, in its own process, released at an agreed instant. */
import { lockStateDir } from '../../electron/sandbox/persist/lock';

const [dir = '', startAt = '0'] = process.argv.slice(2);
while (Date.now() < Number(startAt)) {
  /* spin: every contender leaves the line within the same millisecond */
}
try {
  await lockStateDir(dir);
  process.stdout.write('held\n');
  setTimeout(() => process.exit(0), 500);
} catch (e) {
  process.stdout.write(`busy ${e instanceof Error ? e.name : String(e)}\n`);
  process.exit(0);
}

/** One contender for a sandbox state directory, in its own process (see `contend`). */
import { lockStateDir } from '../../electron/sandbox/persist/lock';
import { contender } from './contender';

const [dir = ''] = process.argv.slice(2);
await contender(async () => {
  try {
    await lockStateDir(dir);
    return 'held';
  } catch (e) {
    return `busy ${e instanceof Error ? e.name : String(e)}`;
  }
});

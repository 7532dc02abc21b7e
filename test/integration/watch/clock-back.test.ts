/**
 * The machine's clock stepped back an hour while a watched folder is followed, as NTP does after a laptop
 * slept with a clock running fast. A file that was settling, and one dropped after the step into a folder
 * that is polled (a network drive), are taken within their settle time, not an hour later: the watcher's
 * waits are measured by how long it really waited. The engine runs in this process, so the step is this
 * process's wall clock (`Date.now`); its monotonic clock keeps real time, as the OS's does.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, it, vi } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';
import { addFolder, filesOf, folderOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const HOUR_MS = 3_600_000;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('the clock stepped back an hour while a folder is watched', () => {
  it('a settling file and one dropped after the step into a polled folder are both taken', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    // A settle long enough to step the clock while the first file is still settling.
    const host = watchEngine(sb, tempDir(), { settleMs: 3000 });
    cleanup.push(() => host.close());
    const { api } = host;
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-clock-');
    const folder = await addFolder(api, dir, { polling: 'always' });
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      'watching',
      () => folderOf(api, folder.id),
      (f) => f.status === 'watching',
    );

    await copyFile(audioMp3(1.11, 'clock-settling.mp3'), join(dir, 'settling.mp3'));
    await waitFor(
      'settling',
      () => filesOf(api, folder.id),
      (fs) => fs.some((f) => f.status === 'settling'),
    );
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - HOUR_MS);
    await copyFile(audioMp3(1.12, 'clock-after.mp3'), join(dir, 'after the step.mp3'));

    // Two files, two languages each (the folder's preset): four jobs, long before an hour.
    await waitFor(
      'both queued',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2,
    );
  }, 60_000);
});

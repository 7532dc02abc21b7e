/**
 * What a first launch under real Electron must show, which the mocked shell cannot (issue 30): the app's
 * name from package.json's productName, the data folder as user-data folder, no file "opened" from
 * Playwright's switches or the app folder, a lock per data folder (two homes side by side), and the
 * page's calls reaching the engine (the sender's frame is the window's main frame). Run by
 * test/electron/run-suite.mjs where Electron's binary is present.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir';
import { apiThroughWindow, launchDesktop, type DesktopRun } from './electron-app';

const runs: DesktopRun[] = [];
afterAll(async () => {
  for (const run of runs) await run.electron.close().catch(() => {});
});

describe('a first launch', () => {
  it('is named Dubdesk, keeps its data in its home, and opens no file of its own command line', async () => {
    const run = await launchDesktop(tempDir('dubdesk-first-'), { DUBDESK_KEY_STORE: 'file' });
    runs.push(run);
    await run.page.getByRole('button', { name: '+ Add files' }).waitFor();
    const seen = await run.electron.evaluate(({ app }) => ({
      name: app.name,
      userData: app.getPath('userData'),
      argv: process.argv,
    }));
    expect(seen.name).toBe('Dubdesk');
    expect(seen.userData).toBe(run.home);
    // Playwright put --inspect=0 and --remote-debugging-port=0 before the app folder: none is a file.
    expect(seen.argv.some((a) => a.startsWith('--remote-debugging-port'))).toBe(true);
    expect(await run.page.getByRole('dialog', { name: 'Add to queue' }).count()).toBe(0);
    expect(run.troubles.console).toEqual([]);
  });

  it('runs beside a Dubdesk on another data folder: the lock is per data folder', async () => {
    const other = await launchDesktop(tempDir('dubdesk-second-home-'), { DUBDESK_KEY_STORE: 'file' });
    runs.push(other);
    await other.page.getByRole('button', { name: '+ Add files' }).waitFor();
    const totals = await apiThroughWindow(other.page).totals();
    expect(totals.left).toBe(0);
    expect(runs.every((r) => !r.electron.process().killed && r.electron.process().exitCode === null)).toBe(
      true,
    );
  });
});

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { envFor, runCli, startCli } from '../helpers/cli';
import { allJobs } from '../helpers/engine';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';

/**
 * The window and a terminal share one data folder (the desktop app and `dubdesk` do, every day): what a
 * terminal does, in a process of its own, shows in the open window without a reload.
 */
describe('a terminal on the same data folder: the open window shows what it did', () => {
  let folder = '';
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 1 },
    started: async (app) => {
      folder = join(tempDir('dubdesk-other-'), 'élan vidéos');
      mkdirSync(folder);
      // A limit of one credit an hour: the folder's file waits for approval, which a terminal gives.
      await app.host.api.addWatchFolder({ path: folder, preset: { to: ['de'], creditLimit: 1 } });
    },
    ready: addButtonShown,
  });
  const terminal = async (...args: string[]) => {
    const r = await runCli(args, envFor(e2e.app.sb, e2e.app.home));
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };
  const credits = () => e2e.view.page.getByTestId('header-credits').innerText();
  const jobIdOf = async (name: string) => {
    const job = (await allJobs(e2e.app.host.api)).find((j) => j.sourceName === name);
    if (!job) throw new Error(`no job of ${name}`);
    return job.id;
  };

  it('paused: a file added from a terminal shows as a row, and its credits in the committed count', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Pause queue', exact: true }).click();
    await page.getByText('The queue is paused.').waitFor();
    expect(await credits()).toMatch(/^0 cr\b/);

    await terminal('add', videoMp4(3, 'from a terminal.mp4'), '--to', 'es');
    const row = page.getByRole('row', { name: /from a terminal\.mp4/ });
    await row.getByRole('button', { name: /^Spanish, es: paused/ }).waitFor(PATIENT);
    await expect.poll(credits, PATIENT).toMatch(/^[1-9]\d* cr\b/);
  });

  const terminalRow = () => e2e.view.page.getByRole('row', { name: /from a terminal\.mp4/ });

  it('paused: a cancel from a terminal shows in the window, and its credits leave the committed count', async () => {
    await terminal('cancel', String(await jobIdOf('from a terminal.mp4')));
    await terminalRow()
      .getByRole('button', { name: /^Spanish, es: canceled/ })
      .waitFor(PATIENT);
    await expect.poll(credits, PATIENT).toMatch(/^0 cr\b/);
  });

  it('paused: a retry from a terminal shows in the window, and its credits come back', async () => {
    await terminal('retry', String(await jobIdOf('from a terminal.mp4')));
    await terminalRow()
      .getByRole('button', { name: /^Spanish, es: paused/ })
      .waitFor(PATIENT);
    await expect.poll(credits, PATIENT).toMatch(/^[1-9]\d* cr\b/);
  });

  it('paused: a clear from a terminal takes the row off the list in the window', async () => {
    await terminal('cancel', String(await jobIdOf('from a terminal.mp4')));
    await terminalRow()
      .getByRole('button', { name: /^Spanish, es: canceled/ })
      .waitFor(PATIENT);
    await terminal('clear', '--canceled');
    await terminalRow().waitFor({ state: 'detached', ...PATIENT });
  });

  it("a watched folder's file approved from a terminal is queued in the window", async () => {
    const { page } = e2e.view;
    copyFileSync(videoMp4(2, 'watched-other.mp4'), join(folder, 'épisode 01.mp4'));
    await expect
      .poll(async () => (await e2e.app.host.api.listWatchFolders()).folders[0]?.counts.awaitingApproval, {
        ...PATIENT,
        timeout: 45_000,
      })
      .toBe(1);

    await terminal('watch', '--approve', folder);
    const row = page.getByRole('row', { name: /épisode 01\.mp4/ });
    await row.getByRole('button', { name: /^German, de: paused/ }).waitFor(PATIENT);
    await expect.poll(credits, PATIENT).toMatch(/^[1-9]\d* cr\b/);
  });

  it('running: a file added from a terminal shows, and is dubbed', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Resume queue', exact: true }).first().click();
    await terminal('add', videoMp4(2, 'running terminal.mp4'), '--to', 'fr');
    const row = page.getByRole('row', { name: /running terminal\.mp4/ });
    await row.getByRole('button', { name: /^French, fr: done/ }).waitFor({ ...PATIENT, timeout: 45_000 });
  });
});

describe('a terminal works the queue and watches the folder: the open window shows its takes', () => {
  let folder = '';
  const e2e = openedApp({
    // The window does not work the queue: the terminal's `dubdesk run` does (it holds the queue's lock).
    sandbox: { pipelineSeconds: 1 },
    work: false,
    started: async (app) => {
      folder = join(tempDir('dubdesk-other-'), 'to german');
      mkdirSync(folder);
      await app.host.api.addWatchFolder({ path: folder, preset: { to: ['de'] } });
    },
    ready: addButtonShown,
  });

  it("a file the terminal's watcher takes shows as a row, in the committed count, and done", async () => {
    const { page } = e2e.view;
    const run = startCli(['run', '--poll-interval', '0.2'], envFor(e2e.app.sb, e2e.app.home));
    try {
      await expect
        .poll(async () => (await e2e.app.host.api.listWatchFolders()).folders[0]?.status, PATIENT)
        .toBe('watching');
      copyFileSync(videoMp4(2, 'watched-terminal.mp4'), join(folder, 'épisode 02.mp4'));
      const row = page.getByRole('row', { name: /épisode 02\.mp4/ });
      await row.waitFor({ ...PATIENT, timeout: 45_000 });
      await row.getByRole('button', { name: /^German, de: done/ }).waitFor({ ...PATIENT, timeout: 45_000 });
    } finally {
      run.child.kill('SIGINT');
      await run.done;
    }
  });
});

/**
 * A watched file's versions and renames in the browser (issue 31.12): the queue's row of a re-exported file
 * shows its new version (one chip per language, its length) and the earlier one in a line under it; the
 * Files dialog of a folder named "in" is titled so it reads ("Files in “in”"), says a renamed file kept its
 * results' names, and says the old name is gone.
 */
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3 } from '../helpers/media';

const LONG = { timeout: 60_000, interval: 200 };

describe('a watched file’s versions and renames', () => {
  const folder = join(tempDir('dubdesk-e2e-watch-'), 'in');
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 0.5 },
    started: async (app) => {
      mkdirSync(folder);
      await app.host.api.addWatchFolder({
        path: folder,
        preset: { to: ['es', 'fr'], outDir: tempDir('dubdesk-e2e-watch-out-') },
      });
    },
    ready: addButtonShown,
  });
  const done = (n: number) => async () =>
    (await allJobs(e2e.app.host.api)).filter((j) => j.state === 'completed').length >= n;

  it('a new version is the row, the earlier one a line under it', async () => {
    const { page } = e2e.view;
    copyFileSync(audioMp3(1.5, 'wv-first.mp3'), join(folder, 'talk.mp3'));
    await expect.poll(done(2), LONG).toBe(true);
    copyFileSync(audioMp3(4.5, 'wv-second.mp3'), join(folder, 'talk.mp3'));
    await expect.poll(done(4), LONG).toBe(true);
    const row = page.getByRole('row', { name: /talk\.mp3/ });
    await row.getByText(/^Earlier version: Spanish, French done/).waitFor(PATIENT);
    expect(await row.getByRole('button', { name: /^(Spanish|French), / }).count()).toBe(2);
    expect(await row.locator('.cell-duration').textContent()).toBe('0:05');
    await screenshot(page, 'watch-new-version-row');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('a rename keeps the results’ names; the Files dialog says so, and that the old name is gone', async () => {
    const { page } = e2e.view;
    copyFileSync(audioMp3(2.5, 'wv-rename.mp3'), join(folder, 'draft cut.mp3'));
    await expect.poll(done(6), LONG).toBe(true);
    renameSync(join(folder, 'draft cut.mp3'), join(folder, 'final cut.mp3'));
    await page.getByRole('button', { name: /^Watched folders/ }).click();
    await page.getByRole('button', { name: 'Files', exact: true }).click();
    const files = page.getByRole('dialog', { name: 'Files in “in”' });
    await files.waitFor();
    const fileRow = (name: string) =>
      files.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    await expect
      .poll(async () => fileRow('final cut.mp3').textContent(), LONG)
      .toMatch(/renamed from draft cut\.mp3: its results keep their names/);
    await expect
      .poll(async () => fileRow('draft cut.mp3').textContent(), LONG)
      .toMatch(/gone: renamed to final cut\.mp3/);
    expect(await fileRow('draft cut.mp3').getByRole('button').count()).toBe(0);
    // The two versions of talk.mp3 are told apart: the earlier one's results went to previous/, and only the
    // file now there can be dubbed again.
    const talk = fileRow('talk.mp3');
    expect(await talk.count()).toBe(2);
    const earlier = talk.filter({ hasText: /earlier version/ });
    expect(await earlier.textContent()).toMatch(/earlier version, replaced: its results are in previous\//);
    expect(await earlier.getByRole('button').count()).toBe(0);
    expect(
      await talk
        .filter({ hasText: /✓ done/ })
        .getByRole('button', { name: 'Dub again' })
        .count(),
    ).toBe(1);
    expect((await allJobs(e2e.app.host.api)).length).toBe(6);
    await screenshot(page, 'watch-files-renamed');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'watch-files-renamed-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousViolations(page)).toEqual([]);
    await files.getByRole('button', { name: 'Close' }).click();
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

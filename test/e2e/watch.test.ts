import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { textFile, videoMp4 } from '../helpers/media';

describe('watched folders from the browser', () => {
  let folder = '';
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 1 },
    started: async () => {
      folder = join(tempDir('dubdesk-watch-'), 'to-es-fr');
      mkdirSync(folder);
      copyFileSync(videoMp4(2, 'watched.mp4'), join(folder, 'episode-01.mp4'));
      copyFileSync(textFile('watched-notes.mp4', 'not a video\n'), join(folder, 'notes.mp4'));
    },
    ready: (page) => page.getByRole('button', { name: /^Watched folders/ }).click(),
  });

  it('adds a folder with its languages and a credit limit; its file is dubbed and counted', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: '+ Watch a folder' }).click();
    const form = page.getByRole('dialog', { name: 'Watch a folder' });
    await form.getByRole('textbox', { name: 'Folder' }).fill(folder);
    const box = form.getByRole('combobox', { name: /Dub into/ });
    for (const name of ['Spanish', 'French']) {
      await box.fill(name);
      await box.press('Enter');
    }
    await form.getByRole('textbox', { name: /Ask before spending/ }).fill('600');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Start watching' }).click();
    await form.waitFor({ state: 'hidden' });

    const card = page.getByRole('listitem').filter({ hasText: folder });
    await card.getByText('Watching').waitFor();
    expect(await card.textContent()).toContain('Spanish, French');
    await expect
      .poll(() => card.getByRole('list', { name: 'Files' }).textContent(), { timeout: 45_000 })
      .toMatch(/1 done/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("lists the folder's files with their status, and a bad file's problem in words", async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Files', exact: true }).click();
    const files = page.getByRole('dialog', { name: 'Files in “to-es-fr”' });
    await files.getByRole('row', { name: /episode-01\.mp4.*done/ }).waitFor();
    expect(await files.getByRole('row', { name: /notes\.mp4/ }).textContent()).toMatch(/not a video/);
    await files.getByRole('button', { name: 'Close' }).click();
  });

  it('pauses and resumes, and removes only after a confirm', async () => {
    const { page } = e2e.view;
    const card = page.getByRole('listitem').filter({ hasText: folder });
    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText('Paused').waitFor();
    await card.getByRole('button', { name: 'Resume' }).click();
    await card.getByText('Watching').waitFor();

    await card.getByRole('button', { name: 'Remove…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Stop watching this folder?' });
    await confirm.getByRole('button', { name: 'Keep as is' }).click();
    expect(await card.count()).toBe(1);
    await card.getByRole('button', { name: 'Remove…' }).click();
    await confirm.getByRole('button', { name: 'Stop watching' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await e2e.app.host.api.listWatchFolders()).folders).toEqual([]);
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

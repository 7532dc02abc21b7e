/**
 * Files uploaded through the browser (issue 22.8): with "Beside each source" their results used to land in
 * serve's hidden staging folder. They go to the user's Downloads folder now (the XDG user directory of a
 * temporary home: a translated name, as a French desktop has it), the Add sheet says so, and "Download all"
 * gives the batch's results as one zip holding exactly those files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../shared/contract/jobs';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, saved, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { tempDir } from '../helpers/temp-dir';
import { currentFace } from '../helpers/face';
import { videoMp4 } from '../helpers/media';

const home = tempDir('dubdesk-user-home-');
const downloads = join(home, 'Téléchargements');
const resultsFolder = join(downloads, 'Dubdesk');

describe.runIf(currentFace() === 'web')('a batch uploaded from the browser, saved beside each source', () => {
  const video = videoMp4(2, 'interview.mp4');
  const e2e = openedApp({
    sandbox: { pipelineSeconds: 1 },
    prepare: () => {
      mkdirSync(join(home, '.config'), { recursive: true });
      writeFileSync(join(home, '.config', 'user-dirs.dirs'), 'XDG_DOWNLOAD_DIR="$HOME/Téléchargements"\n');
    },
    folders: { home, env: {}, platform: 'linux' },
    ready: addButtonShown,
  });

  it('says where uploaded files go, and saves their results there, not in the staging folder', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', video);
    const saveTo = sheet.getByRole('textbox', { name: 'Save to' });
    await expect.poll(() => saveTo.getAttribute('aria-describedby'), PATIENT).toBeTruthy();
    const hint = sheet.getByText('Files sent from this browser have no folder of their own');
    await expect.poll(() => hint.textContent(), PATIENT).toContain(resultsFolder);
    const box = page.getByRole('combobox', { name: /Dub into/ });
    await box.fill('Spanish');
    await page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
    await box.press('Enter');
    await expect
      .poll(() => page.getByTestId('estimate-jobs').textContent(), PATIENT)
      .toMatch(/^1 file × 1 language = 1 dub/);
    await box.press('Tab'); // the list closes; the hint under Save to is in view for the pictures
    await hint.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `uploads-folder-hint-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousViolations(page)).toEqual([]);
    await sheet.getByRole('button', { name: 'Add and start' }).click();

    let job: JobView | undefined;
    await vi.waitFor(
      async () => {
        job = (await allJobs(e2e.app.host.api)).find((j) => j.state === 'completed');
        expect(job).toBeDefined();
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(job?.outDir).toBe(resultsFolder);
    const saved = readdirSync(resultsFolder).sort();
    expect(saved).toContain('interview.es.mp4');
    for (const o of job?.outputs ?? []) expect(o.path.startsWith(`${resultsFolder}/`), o.path).toBe(true);
    // The staging folder holds the uploaded file and nothing the engine made.
    const staged = readdirSync(join(e2e.app.home, 'staging')).filter((d) => !d.startsWith('.'));
    for (const d of staged)
      expect(readdirSync(join(e2e.app.home, 'staging', d)).filter((f) => f !== '.staged')).toEqual([
        'interview.mp4',
      ]);
  });

  it('"Download all" gives the batch as one zip holding exactly its files', async () => {
    const { page } = e2e.view;
    await page.getByRole('checkbox', { name: 'Select interview.mp4' }).click();
    const link = page.getByRole('link', { name: 'Download all' });
    await link.waitFor(PATIENT);
    // Not flush against the status text beside it: the 8 px grid's distance at least.
    const status = page.getByText(/All done: nothing to retry/);
    const [a, b] = [await link.boundingBox(), await status.boundingBox()];
    expect(a && b && b.x - (a.x + a.width)).toBeGreaterThanOrEqual(8);
    await page.setViewportSize({ width: 640, height: 400 });
    await screenshot(page, 'uploads-folder-download-all-200pct'); // 1280x800 at 200% zoom
    await page.setViewportSize({ width: 1280, height: 800 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('interview.zip');
    const zip = await saved(download);
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    const job = (await allJobs(e2e.app.host.api)).find((j) => j.state === 'completed');
    const expected = (job?.outputs ?? []).map((o) => o.path.slice(resultsFolder.length + 1)).sort();
    expect(names).toEqual([...new Set(expected)]);
    for (const name of names)
      expect(
        execFileSync('unzip', ['-p', zip, name]).equals(readFileSync(join(resultsFolder, name))),
        name,
      ).toBe(true);
  });
});

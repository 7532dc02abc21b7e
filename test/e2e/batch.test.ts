import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { creditsFor } from '../../shared/credits';
import { formatBytes } from '../../shared/format';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, saved } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { currentFace } from '../helpers/face';
import { allJobs } from '../helpers/engine';
import { audioMp3, videoMp4 } from '../helpers/media';
import { ffprobeSeconds } from '../helpers/probe';
import { formatCount } from '../../renderer/src/format';

/** The running desktop app (Electron face only). */
const desktopRun = async () => {
  const { lastDesktop } = await import('../electron/electron-app');
  if (!lastDesktop) throw new Error('no desktop app is running');
  return lastDesktop;
};

/** A file dropped the way a person drops one: a DataTransfer with a real File, on the drop zone. */
async function dropFile(page: Page, selector: string, path: string, type: string): Promise<void> {
  if (currentFace() === 'electron') {
    // A synthetic drop carries no file on disk: the desktop adds it through its picker, stubbed in main.
    const { stubOpenDialog } = await import('../electron/electron-app');
    await stubOpenDialog((await desktopRun()).electron, [path]);
    await page.getByRole('button', { name: 'browse files' }).click();
    return;
  }
  const bytes = readFileSync(path).toString('base64');
  await page.locator(selector).evaluate(
    (zone, { bytes, name, type }) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      for (const kind of ['dragenter', 'dragover', 'drop'])
        zone.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    },
    { bytes, name: basename(path), type },
  );
}

async function pickLanguages(page: Page, languages: [name: string, code: string][]): Promise<void> {
  const box = page.getByRole('combobox', { name: /Dub into/ });
  for (const [name, code] of languages) {
    await box.fill(name);
    await page.getByRole('option', { name: new RegExp(`^${name} ${code}( |$)`) }).waitFor();
    await box.press('Enter');
  }
  await box.press('Tab');
}

const credits = async (page: Page) =>
  Number(await page.getByTestId('estimate-credits').getAttribute('data-credits'));

describe('a batch from the browser: drop, pick, estimate, add, finish, preview', () => {
  const video = videoMp4(3, 'interview-01.mp4');
  const audio = audioMp3(2.5, 'podcast-02.mp3');

  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, ready: addButtonShown });

  it('estimates two dropped files x three languages from their probed lengths, x2 in studio', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    await page.setInputFiles('[data-testid=file-input]', video);
    await dropFile(page, '[data-testid=dropzone]', audio, 'audio/mpeg');
    await pickLanguages(page, [
      ['Spanish', 'es'],
      ['French', 'fr'],
      ['German', 'de'],
    ]);
    // Tab from the language search goes on to the next control ("From", after the languages), not out of
    // the dialog.
    expect(await sheet.getByLabel('From').evaluate((el) => el === document.activeElement)).toBe(true);

    await expect
      .poll(() => page.getByTestId('estimate-jobs').textContent(), PATIENT)
      .toBe('2 files × 3 languages = 6 dubs');
    const perLanguage = creditsFor(ffprobeSeconds(video), false) + creditsFor(ffprobeSeconds(audio), false);
    await expect.poll(() => credits(page), PATIENT).toBe(perLanguage * 3);
    await expect(sheet.getByText('interview-01.mp4')).toBeDefined();
    expect(await sheet.getByRole('listitem').filter({ hasText: 'podcast-02.mp3' }).textContent()).toMatch(
      /0:03/,
    );

    await sheet.getByRole('checkbox', { name: /Studio quality/ }).check();
    await expect.poll(() => credits(page), PATIENT).toBe(perLanguage * 3 * 2);
    expect(await page.getByTestId('estimate').textContent()).toContain('studio: 2×');
    await sheet.getByRole('checkbox', { name: /Studio quality/ }).uncheck();
    await expect.poll(() => credits(page), PATIENT).toBe(perLanguage * 3);

    expect(await seriousViolations(page)).toEqual([]);
  });

  it('adds and starts: all six complete, their files are on disk', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Add and start' }).click();
    await page.getByRole('dialog', { name: 'Add to queue' }).waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('.chip-done').count(), { timeout: 45_000, interval: 250 }).toBe(6);
    // The sandbox here runs without ffmpeg: a video's dubbed sound is silent MP3 frames, so once QC has
    // looked its row says QC failed on its three dubs; the audio source's dubs are copies of its sound and pass.
    await expect.poll(() => page.getByText('done · 3 QC failed').count(), PATIENT).toBe(1);
    expect(await page.getByText('all done').count()).toBe(1);

    const jobs = await allJobs(e2e.app.host.api);
    expect(jobs.map((j) => j.state)).toEqual(Array(6).fill('completed'));
    for (const j of jobs) {
      expect(j.outputs.length).toBeGreaterThanOrEqual(2);
      for (const o of j.outputs) expect(statSync(o.path).size).toBe(o.bytes);
    }
    // The header's balance is the service's own (its ledger, through the admin route), nothing committed.
    const { sb } = e2e.app;
    const state = (await (
      await fetch(`${sb.baseUrl}/__sandbox/state`, { headers: { 'x-sandbox-admin': sb.adminToken } })
    ).json()) as { accounts: { id: string; seconds: number }[] };
    const seconds = state.accounts.find((a) => a.id === sb.account.id)?.seconds ?? NaN;
    await expect
      .poll(() => page.getByTestId('header-credits').textContent(), PATIENT)
      .toBe(`0 cr / ${formatCount(seconds)} cr`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('plays a finished dub with its subtitles, and the original at the same moment', async () => {
    const { page } = e2e.view;
    await page
      .getByRole('row', { name: /interview-01\.mp4/ })
      .getByRole('button', { name: /^Spanish, es: done/ })
      .click();
    const panel = page.getByRole('complementary', { name: /interview-01\.mp4/ });
    await panel.waitFor();
    const video = panel.locator('video');
    await video.waitFor();
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), PATIENT)
      .toBeGreaterThan(0);
    await expect
      .poll(() => panel.locator('track').evaluate((t: HTMLTrackElement) => t.readyState), PATIENT)
      .toBe(HTMLTrackElementLoaded);
    expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.cues?.length ?? 0)).toBeGreaterThan(
      0,
    );

    const at = await video.evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 1.5;
      return v.currentTime;
    });
    const dubSrc = await video.getAttribute('src');
    await panel.getByRole('button', { name: 'Original' }).click();
    await expect.poll(() => video.getAttribute('src'), PATIENT).not.toBe(dubSrc);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.readyState >= 1 ? v.currentTime : -1)), PATIENT)
      .toBeCloseTo(at, 1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  });

  it('plays an audio dub in an audio element', async () => {
    const { page } = e2e.view;
    await page
      .getByRole('row', { name: /podcast-02\.mp3/ })
      .getByRole('button', { name: /^French, fr: done/ })
      .click();
    const panel = page.getByRole('complementary', { name: /podcast-02\.mp3/ });
    const audio = panel.locator('audio');
    await audio.waitFor();
    expect(await panel.locator('video').count()).toBe(0);
    await audio.evaluate((a: HTMLAudioElement) => {
      a.muted = true;
      return a.play();
    });
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), PATIENT)
      .toBeGreaterThan(0);
    await panel.getByRole('button', { name: 'Close job panel' }).click();
  });

  it.runIf(currentFace() === 'electron')('shows a finished file in its folder (desktop)', async () => {
    const { page } = e2e.view;
    const desktop = await desktopRun();
    await desktop.electron.evaluate(({ shell }) => {
      const seen: string[] = [];
      (globalThis as { revealed?: string[] }).revealed = seen;
      shell.showItemInFolder = (path: string) => void seen.push(path);
    });
    await page
      .getByRole('row', { name: /interview-01\.mp4/ })
      .getByRole('button', { name: /^French, fr: done/ })
      .click();
    const panel = page.getByRole('complementary', { name: /interview-01\.mp4/ });
    const job = (await allJobs(e2e.app.host.api)).find(
      (j) => j.sourceName === 'interview-01.mp4' && j.destLang === 'fr',
    );
    const video = job?.outputs.find((o) => o.path.endsWith('.mp4'));
    if (!video) throw new Error('expected the French dub of interview-01.mp4');
    await panel
      .getByRole('listitem')
      .filter({ hasText: basename(video.path) })
      .getByRole('button', { name: 'Show in folder' })
      .click();
    await expect
      .poll(() => desktop.electron.evaluate(() => (globalThis as { revealed?: string[] }).revealed), PATIENT)
      .toEqual([video.path]);
    await page.keyboard.press('Escape');
  });

  it.runIf(currentFace() === 'web')(
    "downloads a finished job's files from the browser, under their own names",
    async () => {
      const { page } = e2e.view;
      await page
        .getByRole('row', { name: /interview-01\.mp4/ })
        .getByRole('button', { name: /^French, fr: done/ })
        .click();
      const panel = page.getByRole('complementary', { name: /interview-01\.mp4/ });
      const job = (await allJobs(e2e.app.host.api)).find(
        (j) => j.sourceName === 'interview-01.mp4' && j.destLang === 'fr',
      );
      const video = job?.outputs.find((o) => o.path.endsWith('.mp4'));
      if (!video) throw new Error('expected the French dub of interview-01.mp4');
      const name = basename(video.path);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('link', { name: `Download ${name}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      expect(readFileSync(await saved(download)).equals(readFileSync(video.path))).toBe(true);
      // Escape closes the panel and gives focus back to the chip that opened it.
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
      expect(focused).toMatch(/^French, fr: done/);
    },
  );

  it('knows a source already dubbed: skipped unless "dub them again", which prices it again', async () => {
    const { page } = e2e.view;
    const done = (await allJobs(e2e.app.host.api)).find((j) => j.sourceName === 'interview-01.mp4');
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' }).fill(done?.source ?? '');
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    await pickLanguages(page, [['Spanish', 'es']]);

    const estimate = page.getByTestId('estimate');
    await expect
      .poll(() => estimate.textContent(), PATIENT)
      .toContain('already done with these settings — will be skipped');
    expect(await page.getByTestId('estimate-jobs').textContent()).toBe(
      '1 file × 1 language: 1 already done; nothing new to dub',
    );
    expect(await sheet.getByRole('button', { name: 'Add and start' }).isDisabled()).toBe(true);

    await sheet.getByRole('checkbox', { name: 'Dub them again' }).check();
    expect(await page.getByTestId('estimate-jobs').textContent()).toBe('1 file × 1 language = 1 dub');
    expect(await credits(page)).toBe(creditsFor(ffprobeSeconds(video), false));
    expect(await sheet.getByRole('button', { name: 'Add and start' }).isEnabled()).toBe(true);
    await sheet.getByRole('button', { name: 'Cancel' }).click();
  });

  it("uploads a file once for two languages when asked: the estimate says what it saves, the second dub is made from the first one's copy", async () => {
    const { page } = e2e.view;
    const lecture = videoMp4(2, 'lecture-03.mp4');
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await page.setInputFiles('[data-testid=file-input]', lecture);
    await pickLanguages(page, [
      ['Spanish', 'es'],
      ['Italian', 'it'],
    ]);
    // The whole file goes up once: what upload once saves is then the file's size (on the sound-alone path it
    // is the sound's, which the Add sheet chooses by default).
    await sheet.getByRole('radio', { name: /The whole file/ }).check();
    await sheet.getByText('Advanced').click();
    const once = sheet.getByRole('combobox', { name: 'Upload each file once' });
    // A 2-second clip is far under the automatic threshold: nothing saved until asked.
    await expect.poll(() => page.getByTestId('estimate-jobs').textContent(), PATIENT).toContain('= 2 dubs');
    expect(await page.getByTestId('estimate-upload-once').count()).toBe(0);
    await once.selectOption('true');
    await expect
      .poll(() => page.getByTestId('estimate-upload-once').textContent(), PATIENT)
      .toContain(`${formatBytes(statSync(lecture).size)} less to send`);

    await sheet.getByRole('button', { name: 'Add and start' }).click();
    await sheet.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: /lecture-03\.mp4/ });
    await expect.poll(() => row.locator('.chip-done').count(), { timeout: 45_000, interval: 250 }).toBe(2);
    const jobs = (await allJobs(e2e.app.host.api)).filter((j) => j.sourceName === 'lecture-03.mp4');
    const reasons = await Promise.all(
      jobs.map(async (j) => (await e2e.app.host.api.getJob({ id: j.id })).history.map((h) => h.reason ?? '')),
    );
    expect(reasons.filter((r) => r.some((x) => x.includes('made from the uploaded copy')))).toHaveLength(1);
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

/** HTMLTrackElement.LOADED, spelled out: the constant lives in the browser, not in Node. */
const HTMLTrackElementLoaded = 2;

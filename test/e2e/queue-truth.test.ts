import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JSHandle, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { videoMp4 } from '../helpers/media';

/** A drag carrying one file, as the browser builds it for a drag from the desktop. */
const fileDrag = (page: Page): Promise<JSHandle<DataTransfer>> =>
  page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['not media'], 'notes.txt', { type: 'text/plain' }));
    return dt;
  });

const overlayShown = (page: Page) => page.locator('.drop-overlay').isVisible();

describe('the queue says what is true, and the window lets go of a drag', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 2 }, ready: addButtonShown });

  it('a paused queue is shown paused: chips, counts and time left (and the buttons say so in words)', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: 'Pause queue', exact: true }).click();
    await page.getByText('The queue is paused.').waitFor();
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'paused-talk.mp4')], to: ['es', 'fr'] });
    const row = page.getByRole('row', { name: /paused-talk\.mp4/ });
    await row.getByRole('button', { name: /^Spanish, es: paused/ }).waitFor(PATIENT);
    await row.getByRole('button', { name: /^French, fr: paused/ }).waitFor(PATIENT);
    expect(await row.getByRole('button', { name: /%|waiting|uploading|dubbing/ }).count()).toBe(0);
    const nav = page.getByRole('navigation');
    await expect.poll(() => nav.getByRole('button', { name: /^Paused\s*2$/ }).count(), PATIENT).toBe(1);
    await nav.getByRole('button', { name: /^Waiting\s*0$/ }).waitFor();
    const timeLeft = page.getByRole('definition').filter({ hasText: /paused|—|min|s$/ });
    expect(await page.locator('.w-eta').textContent()).toBe('paused');
    expect(await timeLeft.count()).toBeGreaterThan(0);
    await screenshot(page, 'queue-paused-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'queue-paused-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Resume queue', exact: true }).first().click();
    await row.getByText(/all done/).waitFor(PATIENT);
  });

  it('completed jobs offer no Retry, Pause, Resume or Cancel', async () => {
    const { page } = e2e.view;
    await expect
      .poll(async () => (await allJobs(e2e.app.host.api)).every((j) => j.state === 'completed'), PATIENT)
      .toBe(true);
    await page.getByRole('checkbox', { name: 'Select paused-talk.mp4' }).check();
    const group = page.getByRole('group', { name: 'Selected rows' });
    await group.waitFor();
    expect(await group.getByRole('button', { name: /Retry|Pause|Resume|Cancel/ }).count()).toBe(0);
    await group.getByText(/nothing to retry, pause or cancel/i).waitFor();
    await group.getByRole('button', { name: 'Deselect' }).click();
  });

  it('a copy dubbed at no charge says so on its chip, in words and in its name', async () => {
    const { page } = e2e.view;
    const talk = videoMp4(2, 'chip-talk.mp4');
    await e2e.app.host.api.add({ inputs: [talk], to: ['es'] });
    const first = page.getByRole('row', { name: /chip-talk\.mp4/ });
    await first
      .getByRole('button', { name: /^Spanish, es: done(, QC passed)? \(chip-talk\.mp4\)$/ })
      .waitFor(PATIENT);
    const copy = join(dirname(talk), 'chip-talk copy.mp4');
    copyFileSync(talk, copy);
    await e2e.app.host.api.add({ inputs: [copy], to: ['es'] });
    const row = page.getByRole('row', { name: /chip-talk copy\.mp4/ });
    const chip = row.getByRole('button', {
      // Its QC's words, once checked, come before the file's name: a normal dub passes.
      name: /^Spanish, es copied: done, copied from chip-talk\.es\.mp4 at no charge(, QC passed)? \(chip-talk copy\.mp4\)$/,
    });
    await chip.waitFor(PATIENT);
    expect(await chip.innerText()).toMatch(/^✓\s*es\s*copied$/);
    await screenshot(page, 'queue-copied-chip');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('the drop overlay goes away on a drop (on the Add sheet too), a drag leaving the window, and Escape', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    const dataTransfer = await fileDrag(page);

    await page.dispatchEvent('body', 'dragenter', { dataTransfer });
    await expect.poll(() => overlayShown(page)).toBe(true);
    await page.dispatchEvent('[data-testid=dropzone]', 'dragenter', { dataTransfer });
    await page.dispatchEvent('[data-testid=dropzone]', 'dragover', { dataTransfer });
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer });
    await expect.poll(() => overlayShown(page)).toBe(false);

    // Into the window and over a child, then out of the window at once (the browser's leave has no target).
    await page.dispatchEvent('body', 'dragenter', { dataTransfer });
    await page.dispatchEvent('[data-testid=dropzone]', 'dragenter', { dataTransfer });
    await expect.poll(() => overlayShown(page)).toBe(true);
    await page.dispatchEvent('body', 'dragleave', { dataTransfer });
    await expect.poll(() => overlayShown(page)).toBe(false);

    await page.dispatchEvent('body', 'dragenter', { dataTransfer });
    await expect.poll(() => overlayShown(page)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => overlayShown(page)).toBe(false);
  });
});

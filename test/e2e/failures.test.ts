import { describe, expect, it } from 'vitest';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { creditsFor } from '../../shared/credits';
import { allJobs } from '../helpers/engine';
import { tempDir } from '../helpers/temp-dir';
import { ffprobeSeconds } from '../helpers/probe';
import { textFile, videoMp4 } from '../helpers/media';

describe('trouble in the browser: a bad file, a failed dub, a cancel', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, ready: addButtonShown });

  it('shows a bad file with its reason in words, and the rest are dubbed', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await page.setInputFiles('[data-testid=file-input]', [
      videoMp4(2, 'good-take.mp4'),
      textFile('broken-export.mp4', 'not a video at all\n'),
    ]);
    const box = page.getByRole('combobox', { name: /Dub into/ });
    await box.fill('Italian');
    await box.press('Enter');
    await box.press('Tab');

    const bad = sheet.getByRole('listitem').filter({ hasText: 'broken-export.mp4' });
    await expect.poll(() => bad.textContent(), PATIENT).toMatch(/skipped/);
    const words = (await bad.locator('.file-problem').textContent()) ?? '';
    expect(words.replace('— skipped', '').trim().length).toBeGreaterThan(10);
    expect(await page.getByTestId('estimate-jobs').textContent()).toBe('1 file × 1 language = 1 dub');

    await page.getByRole('button', { name: 'Add and start' }).click();
    // The notice names what was left out, as the sheet that said why closes.
    await page.getByText(/1 dub added .*; skipped: broken-export\.mp4\./).waitFor();
    const row = page.getByRole('row', { name: /good-take\.mp4/ });
    await row.getByRole('button', { name: /^Italian, it: done/ }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('row', { name: /broken-export/ }).count()).toBe(0);
  });

  it('refuses a relative output folder under the field itself, and takes a full path', async () => {
    const { page, troubles } = e2e.view;
    const before = { console: troubles.console.length, requests: troubles.requests.length };
    await page.getByRole('button', { name: '+ Add files' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await page.setInputFiles('[data-testid=file-input]', [videoMp4(2, 'relative-out.mp4')]);
    const box = page.getByRole('combobox', { name: /Dub into/ });
    await box.fill('Italian');
    await box.press('Enter');
    await box.press('Tab');
    const out = sheet.getByLabel('Save to');
    await out.fill('dubbed');
    await expect.poll(() => out.getAttribute('aria-invalid'), PATIENT).toBe('true');
    // The field is described by its error, and by where uploaded files' results go.
    const ids = (await out.getAttribute('aria-describedby'))?.split(' ') ?? [];
    const why = sheet.locator(`#${ids.find((id) => id.endsWith('-out-error'))}`);
    expect(await why.textContent()).toContain('dubbed is not a full path');
    await out.fill(tempDir('dubdesk-e2e-out-'));
    await expect
      .poll(() => page.getByTestId('estimate-jobs').textContent(), PATIENT)
      .toBe('1 file × 1 language = 1 dub');
    expect(await out.getAttribute('aria-invalid')).toBeNull();
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    // The refused estimates (HTTP 400, as the contract answers bad input) are this test's only troubles.
    expect(new Set(troubles.requests.splice(before.requests))).toEqual(new Set(['POST /api/estimate: 400']));
    expect(new Set(troubles.console.splice(before.console))).toEqual(
      new Set(['Failed to load resource: the server responded with a status of 400 (Bad Request)']),
    );
  });

  it('shows a failed dub in words with its remedy, and Retry brings it to done', async () => {
    const { page } = e2e.view;
    e2e.app.sb.faults.set({ rateDubFailure: 1 });
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'flaky-dub.mp4')], to: ['pt'] });
    const row = page.getByRole('row', { name: /flaky-dub\.mp4/ });
    await row.getByRole('button', { name: /^Portuguese, pt: failed/ }).waitFor({ timeout: 30_000 });
    e2e.app.sb.faults.set({ rateDubFailure: 0 });

    const problem = row.locator('.job-problem.failed');
    expect(await problem.textContent()).toMatch(/Portuguese:.*\w{4,}/);
    // The contract's words carry no closing stop: the row reads as two sentences, not one run-on line.
    const failed = (await allJobs(e2e.app.host.api)).find((j) => j.sourceName === 'flaky-dub.mp4');
    const { message, remedy } = failed?.error ?? {};
    expect(remedy).toBeTruthy();
    expect(await problem.locator('.problem-text').textContent()).toBe(`${message}. ${remedy}`);
    expect(await page.getByRole('button', { name: /^Failed/ }).textContent()).toMatch(/1$/);

    await row.getByRole('button', { name: /^Retry flaky-dub\.mp4 into Portuguese/ }).click();
    await row.getByRole('button', { name: /^Portuguese, pt: done/ }).waitFor({ timeout: 30_000 });
    const jobs = await allJobs(e2e.app.host.api);
    expect(jobs.find((j) => j.sourceName === 'flaky-dub.mp4')?.state).toBe('completed');
  });

  it('the job panel retries a failed dub into another folder: Save this job to, then Retry into this folder', async () => {
    const { page } = e2e.view;
    e2e.app.sb.faults.set({ rateDubFailure: 1 });
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'elsewhere.mp4')], to: ['nl'] });
    const row = page.getByRole('row', { name: /elsewhere\.mp4/ });
    const chip = row.getByRole('button', { name: /^Dutch, nl: failed/ });
    await chip.waitFor({ timeout: 30_000 });
    e2e.app.sb.faults.set({ rateDubFailure: 0 });

    await chip.click();
    const other = tempDir('dubdesk-e2e-elsewhere-');
    const panel = page
      .getByRole('complementary')
      .filter({ has: page.getByRole('button', { name: 'Close job panel' }) });
    await panel.getByLabel('Save this job to', { exact: true }).fill(other);
    await panel.getByRole('button', { name: 'Retry into this folder' }).click();
    await row.getByRole('button', { name: /^Dutch, nl: done/ }).waitFor({ timeout: 30_000 });
    const job = (await allJobs(e2e.app.host.api)).find((j) => j.sourceName === 'elsewhere.mp4');
    expect(job?.outDir).toBe(other);
    expect(job?.outputs.length).toBeGreaterThan(0);
    for (const o of job?.outputs ?? []) expect(o.path.startsWith(`${other}/`)).toBe(true);

    // Done, it is not dubbed again: its files move to another folder, at no charge.
    const charges = e2e.app.sb.state.ledger.length;
    const third = tempDir('dubdesk-e2e-moved-');
    await panel.getByLabel('Save this job to', { exact: true }).fill(third);
    await panel.getByRole('button', { name: 'Move its files to this folder' }).click();
    await page.getByText(/Moved its files to .*nothing is charged again/).waitFor();
    const moved = (await allJobs(e2e.app.host.api)).find((j) => j.sourceName === 'elsewhere.mp4');
    expect(moved).toMatchObject({ state: 'completed', outDir: third });
    for (const o of moved?.outputs ?? []) expect(o.path.startsWith(`${third}/`)).toBe(true);
    expect(e2e.app.sb.state.ledger.length).toBe(charges);
  });

  it('cancels selected work with Delete, after a confirm that counts the jobs', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: /Pause queue/ }).click();
    await page
      .getByRole('button', { name: /Resume queue/ })
      .first()
      .waitFor();
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'not-this-one.mp4')], to: ['ja', 'ko'] });
    const row = page.getByRole('row', { name: /not-this-one\.mp4/ });
    await row.getByRole('button', { name: /^Japanese, ja: paused/ }).waitFor();

    await row.getByRole('gridcell').nth(1).click();
    await page.getByRole('grid').press('Delete');
    const confirm = page.getByRole('dialog', { name: 'Cancel 2 jobs?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Cancel 2 jobs' }).click();
    await row.getByRole('button', { name: /^Korean, ko: canceled/ }).waitFor();
    await row.getByRole('button', { name: /^Japanese, ja: canceled/ }).waitFor();

    const jobs = await allJobs(e2e.app.host.api);
    expect(jobs.filter((j) => j.sourceName === 'not-this-one.mp4').map((j) => j.state)).toEqual([
      'canceled',
      'canceled',
    ]);
    await page
      .getByRole('button', { name: /Resume queue/ })
      .first()
      .click();
  });

  it('over the balance: the total turns red, says by how much, and adds only after a confirm', async () => {
    const { page } = e2e.view;
    const balance = e2e.app.sb.account.seconds;
    e2e.app.sb.account.seconds = 5;
    try {
      await page.getByRole('button', { name: '+ Add files' }).click();
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      const file = videoMp4(3, 'too-dear.mp4');
      const over = 2 * creditsFor(ffprobeSeconds(file), false) - 5;
      await page.setInputFiles('[data-testid=file-input]', file);
      const box = page.getByRole('combobox', { name: /Dub into/ });
      for (const name of ['Spanish', 'French']) {
        await box.fill(name);
        await box.press('Enter');
      }
      await box.press('Tab');
      await expect
        .poll(() => page.getByTestId('estimate').textContent(), PATIENT)
        .toContain(`short by ${over} cr`);
      const color = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).color);
      expect(await color('[data-testid=estimate-credits]')).not.toBe(await color('.estimate-line'));

      await sheet.getByRole('button', { name: 'Add anyway…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Add over your balance?' });
      await confirm.getByRole('button', { name: 'Keep as is' }).click();
      expect(await sheet.isVisible()).toBe(true);
      await sheet.getByRole('button', { name: 'Add anyway…' }).click();
      await confirm.getByRole('button', { name: 'Add anyway' }).click();
      await sheet.waitFor({ state: 'hidden' });
      await page.getByRole('row', { name: /too-dear\.mp4/ }).waitFor();
    } finally {
      e2e.app.sb.account.seconds = balance;
    }
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

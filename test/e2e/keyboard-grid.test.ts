/**
 * The queue by keyboard and screen reader (issue 31.14), in real Chromium: the grid is one Tab stop with the
 * arrows inside (rows up and down, a row's chips left and right, as the WAI-ARIA grid pattern has it), each
 * chip's name says whose file it is, Ctrl+A selects the rows and not the page's text, a chip waiting for the
 * first upload says so, and the paste box's Add leaves the keyboard in the paste box.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { addButtonShown, PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';

const FILES = ['kb-alpha.mp4', 'kb-bravo.mp4', 'kb-charlie.mp4', 'kb-delta.mp4'];

/** What has the keyboard: the focused element, or the grid's active descendant, as role, name and id. */
async function keyboardAt(page: Page): Promise<{ id: string; role: string; name: string }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const id = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute('aria-activedescendant') || el?.id || '';
    });
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
    const found = (await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: id ? `[id="${id}"]` : ':focus',
    })) as { nodeId: number };
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', {
      nodeId: found.nodeId,
      fetchRelatives: false,
    })) as { nodes: { role?: { value: string }; name?: { value: string } }[] };
    return { id, role: nodes[0]?.role?.value ?? '', name: nodes[0]?.name?.value ?? '' };
  } finally {
    await cdp.detach();
  }
}

const inGrid = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('[role=grid]')));

describe('the queue by keyboard', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 1 }, work: false, ready: addButtonShown });

  it('the grid is one Tab stop; arrows move through rows and through a row’s chips, each named with its file', async () => {
    const { page } = e2e.view;
    const folder = tempDir('dubdesk-e2e-keys-');
    const inputs = await Promise.all(
      FILES.map(async (name, i) => {
        const path = join(folder, name);
        await copyFile(videoMp4(2 + i, name), path);
        return path;
      }),
    );
    await e2e.app.host.api.add({ inputs, to: ['es', 'fr', 'de'], outDir: tempDir() });
    await page.getByRole('row', { name: /kb-delta\.mp4/ }).waitFor(PATIENT);
    // 4 files x 3 languages: 12 chips, none of them a Tab stop of its own.
    const stops = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>('[role=grid], [role=grid] *')].filter(
          (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled,
        ).length,
    );
    expect(stops).toBe(1);

    // From the toolbar's last control that takes the keyboard (nothing failed or done: Retry failed and
    // Clear done are off), one Tab lands in the grid.
    await page.getByRole('searchbox', { name: 'Search files by name' }).focus();
    await page.keyboard.press('Tab');
    expect(await keyboardAt(page)).toMatchObject({ name: expect.stringMatching(/^When done:/) });
    await page.keyboard.press('Tab');
    expect(await inGrid(page)).toBe(true);
    expect(await keyboardAt(page)).toMatchObject({
      role: 'row',
      name: expect.stringMatching(/kb-alpha\.mp4/),
    });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const chip = await keyboardAt(page);
    expect(chip.role).toBe('button');
    expect(chip.name).toMatch(/^Spanish, es: waiting.*kb-bravo\.mp4/);
    await page.keyboard.press('ArrowRight');
    expect((await keyboardAt(page)).name).toMatch(/^French, fr: .*kb-bravo\.mp4/);
    await page.keyboard.press('ArrowDown');
    expect((await keyboardAt(page)).name).toMatch(/^French, fr: .*kb-charlie\.mp4/);
    await screenshot(page, 'keyboard-chip-focus');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: /kb-charlie\.mp4/ });
    await panel
      .getByText(/French/)
      .first()
      .waitFor(PATIENT);
    await page.getByRole('grid').focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await keyboardAt(page)).role).toBe('row');
    // One Tab leaves the grid, wherever the arrows were inside it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    expect(await inGrid(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Ctrl+A in the queue selects the rows, not the page', async () => {
    const { page } = e2e.view;
    await page.getByRole('grid').focus();
    await page.keyboard.press('Control+a');
    const group = page.getByRole('group', { name: 'Selected rows' });
    await group.getByText(`${FILES.length} selected`).waitFor(PATIENT);
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
    expect(await page.getByRole('row', { selected: true }).count()).toBe(FILES.length);
    await page.keyboard.press('Escape');
    await expect.poll(() => group.count()).toBe(0);
    // From the page itself (nothing focused), the same.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+a');
    await group.getByText(`${FILES.length} selected`).waitFor(PATIENT);
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
    await group.getByRole('button', { name: 'Deselect' }).click();
  });

  it('the paste box’s Add keeps the keyboard in the paste box', async () => {
    const { page } = e2e.view;
    await page.keyboard.press('Control+o');
    const sheet = page.getByRole('dialog', { name: 'Add to queue' });
    await sheet.waitFor();
    const box = sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' });
    await box.fill(videoMp4(2, 'pasted.mp4'));
    await sheet.getByRole('button', { name: 'Add', exact: true }).focus();
    await page.keyboard.press('Enter');
    await sheet.getByRole('listitem').filter({ hasText: 'pasted.mp4' }).waitFor(PATIENT);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('paste-paths');
    await sheet.getByRole('button', { name: 'Start over' }).click();
    await page.keyboard.press('Escape');
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

describe('a chip waiting for the first upload', () => {
  // Uploads received at 1 MiB/s: the first language's 6 MiB upload takes a while, and the others wait for it.
  const e2e = openedApp({ sandbox: { pipelineSeconds: 30, linkRateMiBps: 1 }, ready: addButtonShown });

  it('says it waits for the upload, not "waiting to retry"', async () => {
    const { page } = e2e.view;
    const big = join(tempDir('dubdesk-e2e-first-upload-'), 'kb-once.mp4');
    await copyFile(videoMp4(2, 'kb-once-src.mp4'), big);
    await truncate(big, 6 * 1024 * 1024);
    await e2e.app.host.api.add({ inputs: [big], to: ['es', 'fr'], uploadOnce: true, outDir: tempDir() });
    const row = page.getByRole('row', { name: /kb-once\.mp4/ });
    const waiting = row.getByRole('button', { name: /^French, fr: waiting, .*first|^French, fr: .*upload/ });
    await waiting.waitFor(PATIENT);
    const name = (await waiting.getAttribute('aria-label')) ?? '';
    expect(name).not.toMatch(/retry/);
    expect(name).toMatch(/kb-once\.mp4/);
    await screenshot(page, 'keyboard-first-upload-chip');
  });
});

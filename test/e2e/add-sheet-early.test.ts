/**
 * The Add sheet opened the moment the window shows, before the app's first answers are back: a person
 * presses Ctrl+O as the window appears, or the machine is busy (a CI runner, a laptop waking up) and the
 * settings take seconds. The sheet must open and work, and take the favourites and last languages in when
 * they come, not blank the window.
 */
import type { BrowserContext, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { videoMp4 } from '../helpers/media';

/** Holds the page's requests of these methods until released. */
class AnswerGate {
  held: Route[] = [];
  private open = false;
  constructor(private readonly methods: readonly string[]) {}
  async install(context: BrowserContext): Promise<void> {
    for (const method of this.methods)
      await context.route(`**/api/${method}`, (route) => {
        if (this.open) void route.continue();
        else this.held.push(route);
      });
  }
  async release(): Promise<void> {
    this.open = true;
    for (const route of this.held.splice(0)) await route.continue();
  }
}

describe('the Add sheet opened before the settings are read', () => {
  const e2e = openedApp({ work: false, page: false });

  it('opens, works, and puts the favourite first once the settings come', async () => {
    await e2e.app.host.api.setSettings({ favouriteLanguages: ['de'] });
    await e2e.app.host.api.add({ inputs: [videoMp4(2, 'early-queued.mp4')], to: ['es'] });
    const gate = new AnswerGate(['getSettings']);
    await e2e.inPage({ beforeOpen: (context) => gate.install(context) }, async (page, view) => {
      await page.getByRole('button', { name: '+ Add files' }).waitFor(PATIENT);
      await expect.poll(() => gate.held.length, PATIENT).toBeGreaterThan(0);
      await page.keyboard.press('Control+o');
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      const paths = sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' });
      await paths.fill(videoMp4(3, 'early-fresh.mp4'));

      await gate.release();
      await sheet.getByRole('button', { name: 'Add', exact: true }).click();
      await sheet.getByText('early-fresh.mp4').waitFor(PATIENT);
      const box = sheet.getByRole('combobox', { name: /Dub into/ });
      await box.click();
      // The favourite, read late, heads the list.
      const list = page.locator(`[id="${await box.getAttribute('aria-controls')}"]`);
      await expect.poll(() => list.getByRole('option').first().textContent(), PATIENT).toMatch(/^German/);
      expect(view.troubles.console).toEqual([]);
    });
  });

  it('shows every screen while the first answers are still out, then fills them in', async () => {
    const gate = new AnswerGate(['getSettings', 'totals', 'listWatchFolders', 'listPresets', 'whenDone']);
    await e2e.inPage({ beforeOpen: (context) => gate.install(context) }, async (page, view) => {
      await page.getByRole('button', { name: '+ Add files' }).waitFor(PATIENT);
      await expect.poll(() => gate.held.length, PATIENT).toBeGreaterThan(0);
      const nav = page.getByRole('navigation', { name: 'Dubdesk' });
      for (const screen of ['Watched folders', 'Spending', 'Settings']) {
        await nav.getByRole('button', { name: new RegExp(screen) }).click();
        await expect.poll(() => view.troubles.console, PATIENT).toEqual([]);
      }
      await gate.release();
      await page.getByRole('heading', { name: 'Settings' }).first().waitFor(PATIENT);
      await nav.getByRole('button', { name: /Spending/ }).click();
      await nav.getByRole('button', { name: /Watched folders/ }).click();
      await page.keyboard.press('Control+o');
      await page
        .getByRole('dialog', { name: 'Add to queue' })
        .getByRole('combobox', { name: /Dub into/ })
        .waitFor(PATIENT);
      expect(view.troubles.console).toEqual([]);
      expect(await page.locator('#root').innerText()).not.toBe('');
    });
  });
});

/**
 * The Add sheet at 200% zoom (a 1280 x 800 window: 640 x 400 CSS pixels), where its body is about 200 px
 * tall between the title and the cost. The cost comes a moment after each pick, later on a busy machine, and
 * can take more lines than the "Reading files…" it replaces: the field being typed in must stay in sight.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot, ZOOM_200 } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { focusedFieldCut } from '../helpers/in-sight';
import { videoMp4 } from '../helpers/media';

describe('the Add sheet at 200% zoom', () => {
  const e2e = openedApp({ work: false, page: false });

  it('keeps the field being typed in whole when a late cost grows the footer', async () => {
    const queued = videoMp4(3, 'zoom-queued.mp4');
    const fresh = videoMp4(4, 'zoom-fresh.mp4');
    // Already queued in Spanish: the cost says so in a line of its own.
    await e2e.app.host.api.add({ inputs: [queued], to: ['es'] });
    await e2e.inPage(ZOOM_200, async (page) => {
      await page.getByRole('button', { name: '+ Add files' }).click();
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      await sheet.getByRole('textbox', { name: 'Paths or URLs, one per line' }).fill(`${queued}\n${fresh}`);
      await sheet.getByRole('button', { name: 'Add', exact: true }).click();
      await sheet.getByText('zoom-fresh.mp4').waitFor(PATIENT);

      // A slow machine: the cost is asked for at once and answered only after the next keystrokes.
      const held: Route[] = [];
      await page.route('**/api/estimate', (route) => void held.push(route));
      const box = sheet.getByRole('combobox', { name: /Dub into/ });
      await box.fill('Spanish');
      await page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
      await box.press('Enter');
      await expect.poll(() => held.length, PATIENT).toBeGreaterThan(0);
      await box.fill('po');
      await page
        .getByRole('option', { name: /Portuguese/ })
        .first()
        .waitFor();
      expect(await focusedFieldCut(page)).toBeNull();

      for (const route of held) await route.continue();
      await page.unroute('**/api/estimate');
      await sheet.getByText(/1 dub is already in the queue/).waitFor(PATIENT);
      await screenshot(page, 'add-sheet-late-cost-200pct');
      expect(await focusedFieldCut(page)).toBeNull();
    });
  });
  it('shows the languages it offers while typing, not under the cost or past the window', async () => {
    await e2e.inPage(ZOOM_200, async (page) => {
      await page.getByRole('button', { name: '+ Add files' }).click();
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      await sheet
        .getByRole('textbox', { name: 'Paths or URLs, one per line' })
        .fill(videoMp4(3, 'zoom-list.mp4'));
      await sheet.getByRole('button', { name: 'Add', exact: true }).click();
      await sheet.getByText('zoom-list.mp4').waitFor(PATIENT);
      const box = sheet.getByRole('combobox', { name: /Dub into/ });
      await box.fill('Spanish');
      await page.getByRole('option', { name: /^Spanish es( |$)/ }).waitFor();
      await box.press('Enter');
      await box.fill('po');
      const option = page.getByRole('option', { name: /Portuguese/ }).first();
      await option.waitFor();
      // What a person sees at the option's middle, once painted: the option itself, not the footer over it.
      const seen = await option.evaluate(async (el) => {
        await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted)));
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (y < 0 || y > window.innerHeight) return `outside the window (at ${Math.round(y)} px)`;
        const top = document.elementFromPoint(x, y);
        return top && el.contains(top) ? 'the option' : `covered by ${top?.className || top?.tagName}`;
      });
      await screenshot(page, 'add-sheet-languages-200pct');
      expect(seen).toBe('the option');
      expect(await focusedFieldCut(page)).toBeNull();
    });
  });
});

/**
 * The screens a new user meets, each in three looks (light, dark, and a 1280 x 800 window at 200% zoom):
 * the first run, Settings with the service chosen, a paused queue, the Add sheet with files and the
 * language list open, a failed job. Taken to be looked at; a look that cuts text off fails here.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { PATIENT, screenshot, ZOOM_200, type PageOptions } from '../helpers/browser-app';
import { openedApp, type OpenedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { focusedFieldCut } from '../helpers/in-sight';
import { videoMp4 } from '../helpers/media';

const LOOKS: [name: string, PageOptions][] = [
  ['light', { colorScheme: 'light' }],
  ['dark', { colorScheme: 'dark' }],
  ['zoom-200', { colorScheme: 'light', ...ZOOM_200 }],
];

/** Text cut off by its box: an element whose text overflows it with no way to scroll to the rest. */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (el.children.length > 0 || !el.textContent?.trim()) continue;
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.display === 'none' || el.clientWidth <= 1) continue; // and screen-reader-only text
      const scrolls = /(auto|scroll)/.test(s.overflowX);
      if (!scrolls && el.scrollWidth > el.clientWidth + 1 && s.overflowX !== 'visible')
        if (s.textOverflow !== 'ellipsis' || !el.title) out.push(el.textContent.trim().slice(0, 60));
    }
    // A glyph wider than the box kept for it runs into the text beside it ("❚❚es").
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.chip-symbol')))
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(`${el.parentElement?.textContent ?? ''} (symbol overlaps)`);
    return out;
  });
}

async function shoot(e2e: OpenedApp, name: string, drive: (page: Page) => Promise<void>): Promise<string[]> {
  const found: string[] = [];
  for (const [lookName, look] of LOOKS)
    await e2e.inPage(look, async (page) => {
      await drive(page);
      await screenshot(page, `tour-${name}-${lookName}`);
      for (const t of await cutOff(page)) found.push(`${lookName}: ${t}`);
      const cut = await focusedFieldCut(page);
      if (cut) found.push(`${lookName}: ${cut}`);
    });
  return found;
}

describe('the tour: what a new user sees', () => {
  const first = openedApp({ firstRun: true, work: false, page: false });
  const e2e = openedApp({ sandbox: { pipelineSeconds: 2, balance: 36_000 }, page: false });

  it('first run, and Settings with the service chosen', async () => {
    const welcome = (page: Page) => page.getByRole('dialog', { name: 'Welcome to Dubdesk' });
    expect(await shoot(first, 'first-run', (page) => welcome(page).waitFor())).toEqual([]);
    expect(
      await shoot(first, 'settings-service', async (page) => {
        await welcome(page)
          .getByRole('button', { name: /Enter API key/ })
          .click();
        await page.getByLabel('API key', { exact: true }).waitFor();
      }),
    ).toEqual([]);
  });

  it('a failed job, open in its panel', async () => {
    const { api } = e2e.app.host;
    e2e.app.sb.faults.set({ rateDubFailure: 1 });
    await api.add({ inputs: [videoMp4(3, 'keynote-2026-final.mp4')], to: ['de'] });
    await expect.poll(async () => (await allJobs(api)).some((j) => j.state === 'failed'), PATIENT).toBe(true);
    e2e.app.sb.faults.set({ rateDubFailure: 0 });
    const found = await shoot(e2e, 'failed-job', async (page) => {
      await page.getByRole('button', { name: /^German, de: failed/ }).click();
      await page
        .getByRole('complementary')
        .getByText(/failed/i)
        .first()
        .waitFor();
    });
    expect(found).toEqual([]);
  });

  it('a paused queue', async () => {
    const { api } = e2e.app.host;
    await api.pauseQueue();
    await api.add({
      inputs: [videoMp4(2, 'interview-01.mp4'), videoMp4(3, 'product-demo.mp4')],
      to: ['es', 'fr'],
    });
    const found = await shoot(e2e, 'queue-paused', async (page) => {
      await page.getByText('The queue is paused.').waitFor(PATIENT);
      await page
        .getByRole('button', { name: /^French, fr: paused/ })
        .first()
        .waitFor(PATIENT);
    });
    expect(found).toEqual([]);
  });

  it('the Add sheet with files and the language list open', async () => {
    const found = await shoot(e2e, 'add-languages', async (page) => {
      await page.getByRole('button', { name: '+ Add files' }).click();
      const sheet = page.getByRole('dialog', { name: 'Add to queue' });
      await page.setInputFiles('[data-testid=file-input]', [
        videoMp4(7, 'launch-trailer.mp4'),
        videoMp4(9, 'behind-the-scenes.mp4'),
      ]);
      await sheet.getByText('launch-trailer.mp4').waitFor();
      const box = sheet.getByRole('combobox', { name: /Dub into/ });
      await box.fill('Spanish');
      await box.press('Enter');
      await box.fill('po');
      const list = page.locator(`[id="${(await box.getAttribute('aria-controls')) ?? ''}"]`);
      await list
        .getByRole('option', { name: /Portuguese/ })
        .first()
        .waitFor();
      // The open list leaves the field's own label in sight: the user still sees what is being picked.
      const label = sheet.getByText('Dub into', { exact: true });
      const covered = await label.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !top || !el.contains(top);
      });
      expect(covered, 'the "Dub into" label is covered by the list').toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
    });
    expect(found).toEqual([]);
  });
});

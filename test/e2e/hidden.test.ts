import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addButtonShown, PATIENT } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { allJobs } from '../helpers/engine';
import { audioMp3 } from '../helpers/media';

/** The page as the browser has it when the window is minimised or its tab is in the background. */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (h ? 'hidden' : 'visible'),
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);

describe('a hidden window does nothing', () => {
  const e2e = openedApp({ sandbox: { pipelineSeconds: 0.5 }, ready: addButtonShown });

  it('makes no contract call while hidden, even as a batch runs, and catches up when shown', async () => {
    const { page } = e2e.view;
    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) calls.push(path);
    });
    await setHidden(page, true);
    await e2e.app.host.api.add({ inputs: [audioMp3(1, 'hidden-talk.mp3')], to: ['es', 'fr'] });
    await expect
      .poll(async () => (await allJobs(e2e.app.host.api)).every((j) => j.state === 'completed'), PATIENT)
      .toBe(true);
    expect(calls, 'contract calls while hidden').toEqual([]);

    await setHidden(page, false);
    await page
      .getByRole('row', { name: /hidden-talk\.mp3/ })
      .getByText(/all done/)
      .waitFor(PATIENT);
    expect(calls.length).toBeGreaterThan(0);
  });
});

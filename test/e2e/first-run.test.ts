import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { tempDir } from '../helpers/temp-dir';
import { videoMp4 } from '../helpers/media';

describe('a first run: nothing configured yet', () => {
  const e2e = openedApp({ firstRun: true, work: false });

  it('offers the built-in sandbox or an API key, and the sandbox choice is saved', async () => {
    const { page } = e2e.view;
    expect((await e2e.app.host.api.getSettings()).service.configured).toBe(false);
    const welcome = page.getByRole('dialog', { name: 'Welcome to Dubdesk' });
    await welcome.waitFor();
    await welcome.getByRole('button', { name: /Enter API key/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'first-run-light');

    await welcome.getByRole('button', { name: /Try with the built-in sandbox/ }).click();
    await welcome.waitFor({ state: 'hidden' });
    const settings = await e2e.app.host.api.getSettings();
    expect(settings.service).toMatchObject({ mode: 'sandbox', configured: true });
  });

  it('then shows the sandbox in Settings as what it is: no key, no address, and what remains to spend', async () => {
    const { page } = e2e.view;
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByText('The sandbox runs inside Dubdesk on this machine').waitFor();
    expect(await page.getByLabel('Service address').count()).toBe(0);
    // The built-in sandbox's own loopback address is not offered as the service's when switching to it.
    await page.getByRole('radio', { name: /The dubbing service/ }).check();
    expect(await page.getByLabel('Service address').inputValue()).toBe('');
    await page.getByRole('radio', { name: /The built-in sandbox/ }).check();
    await expect.poll(() => page.getByText(/cr \/ [\d,]+ cr/).count(), PATIENT).toBe(1);
  });

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

describe('a queue the command line already used, with nothing configured here', () => {
  // Jobs made before the page opens, as `dubdesk dub … --sandbox` leaves them: no service was saved.
  const e2e = openedApp({
    firstRun: true,
    work: false,
    started: async (app) => {
      await app.host.api.add({ inputs: [videoMp4(2, 'used-before.mp4')], to: ['es'], outDir: tempDir() });
    },
  });

  it('is not a first run: no Welcome over the queue, and a banner says where to choose the service', async () => {
    const { page } = e2e.view;
    expect((await e2e.app.host.api.getSettings()).service.configured).toBe(false);
    await page.getByRole('row', { name: /used-before\.mp4/ }).waitFor(PATIENT);
    const banner = page.getByRole('status').filter({ hasText: /No service is chosen in this app yet/ });
    await banner.waitFor(PATIENT);
    expect(await page.getByRole('dialog', { name: 'Welcome to Dubdesk' }).count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'used-queue-no-welcome');
    expect(await seriousViolations(page)).toEqual([]);
    await banner.getByRole('button', { name: 'Choose the service' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
  });
});

import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { appInBrowser, screenshot } from '../helpers/browser-app';

describe('a first run: nothing configured yet', () => {
  const e2e = appInBrowser({ firstRun: true, work: false });

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

  it('had no console error and no failed request', () => {
    expect(e2e.view.troubles).toEqual({ console: [], requests: [] });
  });
});

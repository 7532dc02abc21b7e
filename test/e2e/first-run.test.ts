import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import {
  closeBrowser,
  openPage,
  screenshot,
  startApp,
  type RunningApp,
  type Viewing,
} from '../helpers/browser-app';

describe('a first run: nothing configured yet', () => {
  let app: RunningApp;
  let view: Viewing;

  beforeAll(async () => {
    app = await startApp({ firstRun: true, work: false });
    view = await openPage(app);
  });
  afterAll(async () => {
    await view?.close();
    await closeBrowser();
    await app?.close();
  });

  it('offers the built-in sandbox or an API key, and the sandbox choice is saved', async () => {
    const { page } = view;
    expect((await app.host.api.getSettings()).service.configured).toBe(false);
    const welcome = page.getByRole('dialog', { name: 'Welcome to Dubdesk' });
    await welcome.waitFor();
    await welcome.getByRole('button', { name: /Enter API key/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'first-run-light');

    await welcome.getByRole('button', { name: /Try with the built-in sandbox/ }).click();
    await welcome.waitFor({ state: 'hidden' });
    const settings = await app.host.api.getSettings();
    expect(settings.service).toMatchObject({ mode: 'sandbox', configured: true });
  });

  it('had no console error and no failed request', () => {
    expect(view.troubles).toEqual({ console: [], requests: [] });
  });
});

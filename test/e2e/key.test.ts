import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { openedApp } from '../helpers/opened-app';
import { hostile, json, type Fixture } from '../helpers/hostile';

/** Every header value a recording server saw, for a search for the key. */
const headersSeen = (f: Fixture): string[] =>
  f.seen.flatMap((s) => Object.values(s.headers).flatMap((v) => (Array.isArray(v) ? v : [v ?? ''])));

const isFocused = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) => el === document.activeElement);

describe('the first run and the API key', () => {
  const e2e = openedApp({ firstRun: true, work: false });
  /** Someone else's server on loopback: it records what reaches it and rejects every key. */
  let recorder: Fixture;
  beforeAll(async () => {
    recorder = await hostile((_req, res) => json(res, 401, { detail: 'Invalid API key' }));
  });
  afterAll(() => recorder?.close());

  it('"Enter API key" opens Settings on the service, the key field focused and no address filled in', async () => {
    const { page } = e2e.view;
    const welcome = page.getByRole('dialog', { name: 'Welcome to Dubdesk' });
    await welcome.getByRole('button', { name: /Enter API key/ }).click();
    await welcome.waitFor({ state: 'hidden' });
    expect(await page.getByRole('radio', { name: /The dubbing service/ }).isChecked()).toBe(true);
    await expect.poll(() => isFocused(page, 'API key'), PATIENT).toBe(true);
    // The built-in sandbox's own loopback address is never shown as the service's.
    expect(await page.getByLabel('Service address').inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-first-key-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'settings-first-key-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('"Test key" tests the address shown; with none, or one that is not an address, it says so and tests nothing', async () => {
    const { page } = e2e.view;
    const { sb } = e2e.app;
    const status = page.getByRole('status', { name: 'Key test' });
    await page.getByLabel('API key', { exact: true }).fill(sb.account.apiKey);
    await page.getByRole('button', { name: 'Test key' }).click();
    await status.getByText(/Enter the service address to test the key against/).waitFor();
    expect(await status.getByText(/✓|rejected/).count()).toBe(0);

    await page.getByLabel('Service address').fill('not a url');
    await page.getByRole('button', { name: 'Test key' }).click();
    await status.getByText(/"not a url" is not an address/).waitFor();
    expect(await status.getByText(/✓|rejected/).count()).toBe(0);

    await page.getByLabel('API key', { exact: true }).fill('typed-for-the-recorder');
    await page.getByLabel('Service address').fill(recorder.url);
    await page.getByRole('button', { name: 'Test key' }).click();
    await status
      .getByText(new RegExp(`rejected the API key.*${recorder.url.replace(/\./g, '\\.')}`))
      .waitFor();
    expect(headersSeen(recorder)).toContain('typed-for-the-recorder');
    // One plain sentence with its full stop, brackets not nested, and no "check the settings" in Settings.
    const said = await status.innerText();
    expect(said).toMatch(/rejected the API key: [^()]*\(?HTTP 401 from [^\s()]+\)?\. /);
    expect(said).not.toMatch(/\([^)]*\(|\)\)|in the settings/);

    // An address nothing answers at is said once, not "cannot reach the service: cannot reach …".
    await page.getByLabel('Service address').fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: 'Test key' }).click();
    await status.getByText(/cannot reach/).waitFor(PATIENT);
    expect((await status.innerText()).match(/cannot reach/g)).toHaveLength(1);

    await page.getByLabel('API key', { exact: true }).fill(sb.account.apiKey);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByRole('button', { name: 'Test key' }).click();
    await status.getByText(/✓ .*balance/).waitFor();
  });

  it('sends plain http only to this machine', async () => {
    const { page } = e2e.view;
    await page.getByLabel('Service address').fill('http://dubbing.example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/use https:\/\//).waitFor();
    await expect(
      e2e.app.host.api.setSettings({ service: { baseUrl: 'http://203.0.113.7/' } }),
    ).rejects.toMatchObject({ code: 'bad-request', field: 'service.baseUrl' });
    await expect(
      e2e.app.host.api.testKey({ apiKey: 'k', baseUrl: 'http://203.0.113.7/' }),
    ).rejects.toMatchObject({ code: 'bad-request', field: 'baseUrl' });
  });

  it('binds the saved key to its address: a new address needs the key again, and the key never goes there', async () => {
    const { page } = e2e.view;
    const { sb, host } = e2e.app;
    await page.getByLabel('Service address').fill(sb.baseUrl);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await host.api.account()).balance).toBeGreaterThan(0);

    // Whoever holds the serve token (or the renderer) points the service elsewhere, then asks for the account.
    const before = recorder.seen.length;
    await host.api.setSettings({ service: { baseUrl: recorder.url } });
    await expect(host.api.account()).rejects.toMatchObject({
      code: 'auth',
      message: expect.stringContaining(`entered for ${new URL(sb.baseUrl).origin}`),
    });
    await expect(host.api.totals()).resolves.toBeDefined();
    expect(recorder.seen.slice(before).length).toBe(0);
    expect(headersSeen(recorder)).not.toContain(sb.account.apiKey);

    // The page says so, and asks for the key again before it saves the new address.
    await page.reload();
    await page.getByRole('button', { name: /^Settings/ }).click();
    expect(await page.getByLabel('Service address').inputValue()).toBe(recorder.url);
    await page.getByText(/was entered for .*: enter it again for this address/).waitFor();
    await page.getByLabel('Service address').fill('https://dubbing.example.com');
    await page.getByText(/A new address needs the API key again/).waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);

    // Back to the address it was entered for: the key works again, as it was.
    await host.api.setSettings({ service: { baseUrl: sb.baseUrl } });
    expect((await host.api.account()).balance).toBeGreaterThan(0);
    expect(headersSeen(recorder)).not.toContain(sb.account.apiKey);
  });

  it('had no console error but the refusals asked for above (a rejected key, an http address, no answer)', () => {
    for (const line of e2e.view.troubles.console) expect(line).toMatch(/status of (400|401|503) /);
  });
});

/**
 * `dubdesk serve` on a machine with no system credential store (no D-Bus session here): Settings says the key
 * would go to service.json and saves it there only once the user agrees, as README promises.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { PATIENT } from '../helpers/browser-app';
import { servedByCli } from '../helpers/serve-cli';

describe('Settings in the browser, with no system credential store', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false });
  });
  afterAll(() => sb?.stop());
  const served = servedByCli({
    opener: false,
    env: ({ DBUS_SESSION_BUS_ADDRESS: _bus, DUBDESK_KEY_STORE: _store, ...env }) => env,
  });
  const keyIn = (file: string) => existsSync(file) && readFileSync(file, 'utf8').includes(sb.account.apiKey);

  it('names service.json and saves the key there only once the user agrees', async () => {
    const { page } = await served.open();
    const file = join(served.home, 'service.json');
    await page.getByRole('button', { name: 'Settings' }).first().click();
    await page.getByRole('radio', { name: /The dubbing service/ }).check();
    await page.getByLabel('API key', { exact: true }).fill(sb.account.apiKey);
    await page.getByLabel('Service address').fill(sb.baseUrl);
    const agree = page.getByRole('checkbox', { name: /service\.json/ });
    await agree.waitFor(PATIENT);
    // Why, in one plain sentence: the system's own words (D-Bus, X11 autolaunch) are in the log.
    const why = (await page.locator('#key-file-why').textContent()) ?? '';
    expect(why).toMatch(/no Secret Service \(GNOME Keyring or KWallet\) answered in this session/);
    expect(why).not.toMatch(/DBus|X11|DBUS_SESSION_BUS_ADDRESS/);
    const save = page.getByRole('button', { name: 'Save settings' });
    expect(await save.isDisabled()).toBe(true);
    expect(keyIn(file)).toBe(false);
    await agree.check();
    await save.click();
    await page.getByText('Settings saved.').waitFor(PATIENT);
    expect(keyIn(file)).toBe(true);
  });
});

/**
 * Linux without a tray host (GNOME without the AppIndicator extension: no StatusNotifierWatcher on the
 * session bus), issue 30, review item 18: closing the window while work runs never hides it into a tray that
 * cannot be seen; the work goes on in the window, minimised.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trayHostPresent } from '../../../electron/main/tray-host';
import { fake, type FakeBrowserWindow } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { startApp, type StartedApp } from './start-app';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

const root = join(__dirname, '../../..');
let app: StartedApp;
let win: FakeBrowserWindow;

beforeAll(async () => {
  app = await startApp({ trayShown: false });
  win = app.win;
});
afterAll(() => app.desktop.engine.stop(1000));

describe('a desktop without a tray', () => {
  it('offers to keep working minimised, and minimises instead of hiding', async () => {
    app.desktop.engine.hold(true);
    await app.bridge.add({ inputs: [videoMp4(2, 'no-tray.mp4')], to: ['de'], outDir: tempDir() });
    await vi.waitFor(() => expect(fake.trays[0]?.tooltip ?? '').toContain('1 left'), { timeout: 30_000 });
    win.visible = true;
    fake.dialog.messageResponse = { response: 0, checkboxChecked: false };
    expect(win.close()).toBe(false);
    await vi.waitFor(() => expect(win.minimized).toBe(true));
    expect(fake.dialog.messageBoxes.at(-1)).toMatchObject({
      buttons: ['Keep Working, Minimised', 'Stop and Quit', 'Cancel'],
      detail: expect.stringContaining('Minimised, the work goes on.'),
    });
    expect(win.visible).toBe(true);
    expect(win.destroyed).toBe(false);
    app.desktop.engine.hold(false);
  });
});

describe('the tray host', () => {
  const inBareSession = () =>
    spawnSync(
      'dbus-run-session',
      [
        '--',
        process.execPath,
        '--import',
        'tsx',
        '-e',
        "import('./electron/main/tray-host.ts').then(async (m) => console.log(await m.trayHostPresent('linux')))",
      ],
      { cwd: root, encoding: 'utf8' },
    );

  it('is absent on a session bus where nothing hosts tray icons (GNOME as installed)', (ctx) => {
    const bus = process.platform === 'linux' && spawnSync('dbus-run-session', ['--version']).status === 0;
    if (!bus) ctx.skip('needs Linux with dbus-run-session (.ci/run installs it)');
    const r = inBareSession();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('false');
  });

  it('is present where the watcher answers, and always on macOS and Windows', async () => {
    const says = (reply: string | null) => async () => reply;
    expect(await trayHostPresent('linux', says('method return …\n   boolean true\n'))).toBe(true);
    expect(await trayHostPresent('linux', says('method return …\n   boolean false\n'))).toBe(false);
    const onlyGdbus = async (file: string) => (file === 'gdbus' ? '(true,)\n' : null);
    expect(await trayHostPresent('linux', onlyGdbus)).toBe(true);
    expect(await trayHostPresent('linux', says(null))).toBe(false);
    expect(await trayHostPresent('darwin', says(null))).toBe(true);
    expect(await trayHostPresent('win32', says(null))).toBe(true);
  });
});

/**
 * What the app settles about itself before its lock (issue 30, review items 7, 10, 14 and 19): an absolute
 * data folder whatever DUBDESK_HOME says, the Windows identity of its Start-menu shortcut, and Homebrew's
 * folders on PATH when macOS started it from Finder.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { APP_USER_MODEL_ID, settleIdentity, withToolFolders } from '../../../electron/main/launch-env';

const root = join(__dirname, '../../..');

function fakeApp() {
  const paths = new Map([['appData', '/Users/me/Library/Application Support']]);
  return {
    paths,
    getPath: (name: string) => paths.get(name) ?? '',
    setPath: vi.fn((name: string, value: string) => void paths.set(name, value)),
    setAppUserModelId: vi.fn(),
  };
}

describe('before the lock', () => {
  it('makes a relative DUBDESK_HOME absolute (setPath refuses a relative one, and the app was left window-less)', () => {
    const app = fakeApp();
    const env = { DUBDESK_HOME: 'my home', PATH: '/usr/bin' };
    expect(settleIdentity(app, undefined, env, 'linux')).toBe(resolve('my home'));
    expect(app.paths.get('userData')).toBe(resolve('my home'));
    expect(app.paths.get('sessionData')).toBe(join(resolve('my home'), 'chromium'));
  });

  it('uses Dubdesk in the app-data folder by default', () => {
    const app = fakeApp();
    expect(settleIdentity(app, undefined, { DUBDESK_HOME: '' }, 'darwin')).toBe(
      join('/Users/me/Library/Application Support', 'Dubdesk'),
    );
  });

  it('takes the AppUserModelID of the installer’s shortcut on Windows only (toasts, pinned icons)', () => {
    const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { appId: string };
    expect(APP_USER_MODEL_ID).toBe(config.appId);
    const win = fakeApp();
    settleIdentity(win, 'C:\\Users\\Me\\AppData\\Roaming\\Dubdesk', {}, 'win32');
    expect(win.setAppUserModelId).toHaveBeenCalledWith('app.dubdesk.desktop');
    const linux = fakeApp();
    settleIdentity(linux, '/home/me/.config/Dubdesk', {}, 'linux');
    expect(linux.setAppUserModelId).not.toHaveBeenCalled();
  });

  it('adds Homebrew’s folders to a Finder-started app’s PATH on macOS, once, and nowhere else', () => {
    const finder = '/usr/bin:/bin:/usr/sbin:/sbin';
    expect(withToolFolders(finder, 'darwin')).toBe(`${finder}:/opt/homebrew/bin:/usr/local/bin`);
    expect(withToolFolders('/usr/local/bin:/usr/bin', 'darwin')).toBe(
      '/usr/local/bin:/usr/bin:/opt/homebrew/bin',
    );
    expect(withToolFolders(undefined, 'darwin')).toBe('/opt/homebrew/bin:/usr/local/bin');
    expect(withToolFolders('/usr/bin', 'linux')).toBe('/usr/bin');
    const env: NodeJS.ProcessEnv = { PATH: finder };
    settleIdentity(fakeApp(), '/Users/me/dd', env, 'darwin');
    expect(env.PATH).toContain('/opt/homebrew/bin');
  });
});

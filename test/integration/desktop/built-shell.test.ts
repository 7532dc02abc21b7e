/**
 * The shell as the app ships it: the built main.cjs and preload.cjs, loaded against the mocked `electron`
 * module, with the built engine.cjs forked under Node as its utility process (issue 30, review items 14 and
 * 23, and "bundles never executed"). It starts and quits cleanly; an engine that cannot load shows what it
 * printed and where the log is; a start-up that throws says so and exits instead of holding the lock
 * without a window.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES } from '../../../shared/contract/methods';
import { appFolder, ELECTRON_GLOBAL, forkBuiltEngine, hostNativePackages } from '../../helpers/built-app';
import { fake, FakeBrowserWindow } from '../../helpers/electron-fake';
import { electronModule } from '../../helpers/electron-module';
import { tempDir } from '../../helpers/temp-dir';

type Mocked = ReturnType<typeof electronModule> & { app: Record<string, ReturnType<typeof vi.fn>> };
const forks: ReturnType<typeof forkBuiltEngine>[] = [];
const envs: NodeJS.ProcessEnv[] = [];

/** Loads `app`'s main.cjs as Electron would, on a fresh mocked module and data folder. */
function launch(app: string, adjust: (electron: Mocked) => void = () => {}) {
  fake.dialog.errors.length = 0;
  FakeBrowserWindow.all = [];
  const electron = electronModule() as Mocked;
  electron.utilityProcess = {
    fork: (entry: string, _args: string[], options: { env?: NodeJS.ProcessEnv }) => {
      const child = forkBuiltEngine(entry, options.env);
      forks.push(child);
      envs.push(options.env ?? {});
      return child;
    },
  };
  adjust(electron);
  (globalThis as Record<string, unknown>)[ELECTRON_GLOBAL] = electron;
  const home = join(tempDir(), 'Dubdesk data');
  const saved = { argv: process.argv, home: process.env.DUBDESK_HOME, store: process.env.DUBDESK_KEY_STORE };
  Object.assign(process.env, { DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file' });
  process.argv = [process.execPath];
  try {
    createRequire(__filename)(join(app, 'dist', 'main.cjs'));
  } finally {
    process.argv = saved.argv;
    process.env.DUBDESK_HOME = saved.home;
    process.env.DUBDESK_KEY_STORE = saved.store;
  }
  return { electron, home };
}

afterEach(() => {
  for (const f of forks.splice(0)) f.kill();
});

describe('the built shell bundle', () => {
  it('opens its window on the engine (given the system’s proxy), and quitting stops the engine first', async () => {
    const app = appFolder();
    fake.session.proxyFor = () => 'PROXY proxy.corp.example:3128; DIRECT';
    const { electron, home } = launch(app);
    await vi.waitFor(() => expect(FakeBrowserWindow.all).toHaveLength(1), { timeout: 30_000 });
    expect(fake.dialog.errors).toEqual([]);
    expect(fake.lock.at(-1)?.userData).toBe(home);
    const preload = (FakeBrowserWindow.all[0]?.options.webPreferences as { preload: string }).preload;
    expect(preload).toBe(join(app, 'dist', 'preload.cjs'));
    expect(envs.at(-1)?.HTTPS_PROXY).toBe('http://proxy.corp.example:3128');
    fake.session.proxyFor = () => 'DIRECT';
    const engine = forks.at(-1);
    (electron.app.quit as unknown as () => void)();
    await vi.waitFor(() => expect(engine?.child.exitCode).toBe(0), { timeout: 15_000 });
    expect(electron.app.exit).not.toHaveBeenCalled();
  });

  it('shows what an engine that cannot load printed, and the log, then exits', async () => {
    const watcher = hostNativePackages().find((p) => p.startsWith('@parcel/watcher-')) ?? '';
    const { electron, home } = launch(appFolder([watcher]));
    await vi.waitFor(() => expect(electron.app.exit).toHaveBeenCalledWith(1), { timeout: 30_000 });
    expect(FakeBrowserWindow.all).toHaveLength(0);
    const [title, body] = fake.dialog.errors[0] ?? [];
    expect(title).toBe('Dubdesk cannot open its queue');
    expect(body).toContain(`No prebuild or local build of @parcel/watcher found. Tried ${watcher}`);
    expect(body).toContain('lacks its native parts');
    const log = join(home, 'logs', 'desktop.log');
    expect(body).toContain(`Details are in ${log}.`);
    expect(readFileSync(log, 'utf8')).toContain(
      'engine stderr: Error: No prebuild or local build of @parcel/watcher',
    );
  });

  it('says why when start-up throws, and exits instead of keeping the lock without a window', async () => {
    const { electron, home } = launch(appFolder(), (e) => {
      e.app.whenReady = vi.fn(() => Promise.reject(new Error('GPU process isn’t usable')));
    });
    await vi.waitFor(() => expect(electron.app.exit).toHaveBeenCalledWith(1));
    const log = join(home, 'logs', 'desktop.log');
    expect(fake.dialog.errors).toEqual([
      ['Dubdesk could not start', `GPU process isn’t usable\n\nDetails are in ${log}.`],
    ]);
    expect(readFileSync(log, 'utf8')).toContain('Dubdesk could not start:');
  });
});

describe('the built preload bundle', () => {
  it('exposes every contract method without carrying zod (it runs on every page load)', () => {
    const app = appFolder();
    const preload = join(app, 'dist', 'preload.cjs');
    const code = readFileSync(preload, 'utf8');
    expect(/ZodError|\$ZodType/.test(code), 'zod is in the preload').toBe(false);
    expect(statSync(preload).size).toBeLessThan(40_000);
    const electron = electronModule();
    (globalThis as Record<string, unknown>)[ELECTRON_GLOBAL] = electron;
    fake.openPage('dubdesk://app/index.html');
    createRequire(__filename)(preload);
    const bridge = fake.exposed.dubdesk as Record<string, unknown>;
    for (const name of METHOD_NAMES) expect(typeof bridge[name], name).toBe('function');
    expect(existsSync(preload)).toBe(true);
  });
});

/**
 * Help > Copy Diagnostics and Check for Updates in the whole desktop app, `electron` mocked (the real shell,
 * preload and engine, the engine's process run in this one).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FaceBridge } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import type { EngineChild } from '../../../electron/main/engine-client';
import { RENDERER_URL } from '../../../electron/main/trust';
import { engineChild, fake, FakeBrowserWindow } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

let desktop: DesktopApp;
let bridge: FaceBridge;
const home = tempDir();
const KEY = 'sk-secret-24680';

type Item = { label?: string; role?: string; click?: () => void; submenu?: Item[] };
const helpMenu = () => {
  const menu = fake.menus.at(-1) as { template: Item[] };
  return (menu.template.find((i) => i.role === 'help')?.submenu ?? []).map((i) => i);
};
const click = (label: string) => {
  const item = helpMenu().find((i) => i.label === label);
  if (!item?.click) throw new Error(`no ${label} in the Help menu`);
  item.click();
};

beforeAll(async () => {
  mkdirSync(join(home, 'logs'), { recursive: true });
  // A log an older version wrote with the key in it: the report must leave it out all the same.
  writeFileSync(join(home, 'logs', 'dubdesk.log'), `{"msg":"calling with apikey=${KEY}"}\n`);
  const { registerSchemes, startDubdesk } = await import('../../../electron/main/app');
  registerSchemes();
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  const started = await startDubdesk({
    distDir: '/opt/dubdesk/dist/electron',
    rendererDir,
    home,
    argv: ['/opt/dubdesk/dubdesk'],
    forkEngine: () => engineChild() as unknown as EngineChild,
    engine: { keyStore: 'file', sandbox: { pipelineSeconds: 0.2, balance: 1000 }, service: { apiKey: KEY } },
  });
  if (!started) throw new Error('the app did not start');
  desktop = started;
  const win = FakeBrowserWindow.all[0] as FakeBrowserWindow;
  fake.openPage(RENDERER_URL, win.webContents);
  await import('../../../electron/main/preload');
  bridge = fake.exposed.dubdesk as FaceBridge;
});

afterAll(async () => {
  await desktop?.engine.stop(1000);
});

describe('Help > Copy Diagnostics', () => {
  it('copies the doctor’s lines and the log’s tail, the key left out, and says it did', async () => {
    expect(helpMenu().map((i) => i.label)).toContain('Copy Diagnostics');
    // The engine backs its database up once its start is over (a few seconds in).
    await vi.waitFor(
      () => expect(readdirSync(join(home, 'backups')).some((n) => n.endsWith('.db'))).toBe(true),
      { timeout: 30_000, interval: 200 },
    );
    click('Copy Diagnostics');
    await vi.waitFor(() => expect(fake.clipboard).toHaveLength(1), { timeout: 30_000 });
    const report = fake.clipboard[0] ?? '';
    expect(report).toMatch(/^✓ Runtime: Node\.js /m);
    expect(report).toContain(`✓ Data folder: ${home} (writable`);
    expect(report).toContain('✓ Queue database:');
    // The report names that copy.
    expect(report).toMatch(new RegExp(`^✓ Last backup: ${join(home, 'backups')}`, 'm'));
    expect(report).toContain(
      `lines of ${join(home, 'logs', 'dubdesk.log')}:\n{"msg":"calling with apikey=[redacted]"}`,
    );
    expect(report).not.toContain(KEY);
    await vi.waitFor(() =>
      expect(fake.dialog.messageBoxes.at(-1)).toMatchObject({ message: 'Diagnostics copied' }),
    );
  });
});

describe('Check for Updates', () => {
  it('is in the menu, and in an unpackaged run says updates are off, with the version', async () => {
    expect(helpMenu().map((i) => i.label)).toContain('Check for Updates…');
    click('Check for Updates…');
    await vi.waitFor(() =>
      expect(fake.dialog.messageBoxes.at(-1)).toMatchObject({
        message: 'Updates are off',
        detail: expect.stringContaining('You have Dubdesk 0.1.0.'),
      }),
    );
  });

  it('answers Settings through the bridge with the current version', async () => {
    expect(await bridge.checkForUpdates?.()).toEqual({
      status: 'off',
      current: '0.1.0',
      available: null,
      percent: null,
      error: null,
    });
  });
});

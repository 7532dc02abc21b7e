/** Starts the whole desktop app with `electron` mocked (the test file mocks it) and its page's bridge. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaceBridge } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import type { EngineChild } from '../../../electron/main/engine-client';
import { RENDERER_URL } from '../../../electron/main/trust';
import { engineChild, fake, FakeBrowserWindow } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';

export const DIST = '/opt/dubdesk/dist/electron';

export interface StartedApp {
  desktop: DesktopApp;
  bridge: FaceBridge;
  win: FakeBrowserWindow;
  /** The renderer's folder; a `secret.txt` sits beside it, for the protocol to refuse. */
  rendererDir: string;
}

export interface StartAppOptions {
  home?: string;
  argv?: string[];
  /** Runs once the app has started starting (the lock is taken), before its engine is up. */
  whileStarting?: () => void;
  /** Whether a tray icon can be seen (a desktop with a tray host by default). */
  trayShown?: boolean;
}

export async function startApp(o: StartAppOptions = {}): Promise<StartedApp> {
  const { registerSchemes, startDubdesk } = await import('../../../electron/main/app');
  registerSchemes();
  const root = tempDir();
  const rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'not for the page');
  const starting = startDubdesk({
    distDir: DIST,
    rendererDir,
    home: o.home ?? tempDir(),
    argv: o.argv ?? ['/opt/dubdesk/dubdesk'],
    trayShown: async () => o.trayShown ?? true,
    forkEngine: () => engineChild() as unknown as EngineChild,
    engine: {
      keyStore: 'file',
      sandbox: { pipelineSeconds: 0.2, balance: 1000 },
      backoff: { baseMs: 50, capMs: 400 },
      checkOutputs: true,
    },
  });
  o.whileStarting?.();
  const started = await starting;
  if (!started) throw new Error('the app did not start');
  const win = FakeBrowserWindow.all[0] as FakeBrowserWindow;
  fake.openPage(RENDERER_URL, win.webContents);
  await import('../../../electron/main/preload');
  return { desktop: started, bridge: fake.exposed.dubdesk as FaceBridge, win, rendererDir };
}

/**
 * What the app does before its window exists (issue 30, review items 10 and 16): the single-instance lock is
 * taken once the data folder is the user-data folder (Electron scopes the lock to it, so two data folders are
 * two Dubdesks), the files of this launch go along with the lock request, and a second launch while the
 * engine is still starting keeps its files.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShellEvent } from '../../../shared/face';
import type { DesktopApp } from '../../../electron/main/app';
import { fake } from '../../helpers/electron-fake';
import { tempDir } from '../../helpers/temp-dir';
import { startApp, type StartedApp } from './start-app';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

const home = join(tempDir(), 'Dubdesk home');
const videos = tempDir('dubdesk-videos-');
const [first, second] = [join(videos, 'first launch.mp4'), join(videos, 'during start-up.mov')];
writeFileSync(first, 'x');
writeFileSync(second, 'x');
let started: StartedApp;
let desktop: DesktopApp;
let engineUpAtSecondLaunch: boolean | null = null;
const paths = () =>
  fake.app as unknown as { getPath(n: string): string; setPath(n: string, v: string): void };

beforeAll(async () => {
  started = await startApp({
    home,
    argv: ['/opt/dubdesk/dubdesk', '--no-sandbox', first],
    whileStarting: () => {
      engineUpAtSecondLaunch = fake.crossings.some((c) => c.channel === 'ready');
      const argv = ['/opt/dubdesk/dubdesk', '--original-process-start-time=1'];
      fake.app.emit('second-instance', {}, argv, videos, { files: [second] });
    },
  });
  desktop = started.desktop;
  return () => desktop.engine.stop(1000);
});

describe('before the window', () => {
  it('takes the lock in the data folder, handing over the files this launch names', () => {
    expect(fake.lock).toEqual([{ userData: home, additionalData: { files: [first] } }]);
    expect(paths().getPath('sessionData')).toBe(join(home, 'chromium'));
  });

  it('keeps the files of a second launch made while the engine was starting', async () => {
    expect(engineUpAtSecondLaunch).toBe(false);
    const events: ShellEvent[] = [];
    started.bridge.onShellEvent?.((e) => events.push(e));
    await vi.waitFor(() =>
      expect(events.flatMap((e) => (e.type === 'open-files' ? e.paths : []))).toEqual([first, second]),
    );
  });

  it('a second launch on another data folder is not handed over: it has a lock of its own', () => {
    const lock = fake.app.requestSingleInstanceLock as (data: unknown) => boolean;
    expect(lock({ files: [] })).toBe(false);
    paths().setPath('userData', tempDir());
    expect(lock({ files: [] })).toBe(true);
    paths().setPath('userData', home);
  });
});

/**
 * Windows shutting down or signing out (issue 30, review item 24): `before-quit` is not emitted, only the
 * window's `session-end`, and the process is ended soon after. The engine is stopped gently, with a short
 * grace, and the window's place is kept.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_END_GRACE_MS } from '../../../electron/main/quit';
import { fake } from '../../helpers/electron-fake';
import { startApp, type StartedApp } from './start-app';

vi.mock('electron', async () => (await import('../../helpers/electron-module')).electronModule());

let app: StartedApp;
beforeAll(async () => {
  app = await startApp();
});

describe('the Windows session ending', () => {
  it('stops the engine gently with a short grace, and keeps the window’s place', async () => {
    app.win.emit('session-end', { reasons: ['shutdown'] });
    const stop = fake.crossings.find((c) => c.route === 'main->engine' && c.channel === 'stop');
    expect(stop?.data).toEqual({ type: 'stop', graceMs: SESSION_END_GRACE_MS });
    await vi.waitFor(
      () =>
        expect(fake.crossings.some((c) => c.route === 'engine->main' && c.channel === 'stopped')).toBe(true),
      { timeout: 15_000 },
    );
    expect(existsSync(join(app.desktop.home, 'window-state.json'))).toBe(true);
    // The quit that follows, if Windows waits for it, does not stop the engine a second time.
    (fake.app.quit as () => void)();
    expect(fake.crossings.filter((c) => c.channel === 'stop')).toHaveLength(1);
  });
});

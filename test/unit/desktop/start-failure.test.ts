/**
 * A start-up that throws, and a promise nobody waited on (issue 30, review item 14): both are written to the
 * shell's log in the data folder; the first is also said in a dialog that names the log, and the app exits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { logUnhandled, reportStartFailure } from '../../../electron/main/start-failure';
import { tempDir } from '../../helpers/temp-dir';

const appOn = (home: string) => ({ getPath: () => home, exit: vi.fn() });

describe('when start-up fails', () => {
  it('logs the stack, says why with the log’s path, and exits with 1', () => {
    const home = join(tempDir(), 'Dubdesk');
    const app = appOn(home);
    const dialog = { showErrorBox: vi.fn() };
    reportStartFailure(new Error('Path must be absolute: my home'), { app, dialog });
    const log = join(home, 'logs', 'desktop.log');
    expect(dialog.showErrorBox).toHaveBeenCalledWith(
      'Dubdesk could not start',
      `Path must be absolute: my home\n\nDetails are in ${log}.`,
    );
    expect(app.exit).toHaveBeenCalledWith(1);
    expect(readFileSync(log, 'utf8')).toMatch(
      /Dubdesk could not start:\n.*Error: Path must be absolute: my home\n.*at /,
    );
  });

  it('logs an unhandled rejection without stopping the app', () => {
    const home = join(tempDir(), 'Dubdesk');
    const app = appOn(home);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    logUnhandled(new Error('late failure'), { app });
    quiet.mockRestore();
    expect(readFileSync(join(home, 'logs', 'desktop.log'), 'utf8')).toContain('Error: late failure');
    expect(app.exit).not.toHaveBeenCalled();
  });
});

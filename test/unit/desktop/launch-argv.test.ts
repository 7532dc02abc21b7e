/**
 * Which names on a command line are files to open (issue 30, review item 11). Playwright launches
 * `electron --inspect=0 --remote-debugging-port=0 [--no-sandbox] <app folder>`, a developer runs
 * `electron --no-sandbox .`, and Chromium appends switches to a second launch's argv: none of these, nor the
 * app's own folder, is a file the user asked to dub.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesFromArgv, filesOfSecondLaunch } from '../../../electron/main/single-instance';
import { tempDir } from '../../helpers/temp-dir';

const app = tempDir('dubdesk-app-');
mkdirSync(join(app, 'dist'));
const videos = tempDir('dubdesk-videos-');
const clip = join(videos, 'Vidéo à doubler.mp4');
writeFileSync(clip, 'x');
const unpackaged = { defaultApp: true, cwd: app, appPath: app };
const electron = '/work/node_modules/electron/dist/electron';

describe('files named on the command line', () => {
  it('takes none from the way Playwright launches the app (switches first, then the app folder)', () => {
    const argv = [electron, '--inspect=0', '--remote-debugging-port=0', '--no-sandbox', app];
    expect(filesFromArgv(argv, unpackaged)).toEqual([]);
    expect(filesFromArgv([...argv, clip], unpackaged)).toEqual([clip]);
  });

  it('takes none from `electron --no-sandbox .` run in the app folder', () => {
    expect(filesFromArgv([electron, '--no-sandbox', '.'], unpackaged)).toEqual([]);
    expect(filesFromArgv([electron, '--no-sandbox', '.', clip], unpackaged)).toEqual([clip]);
  });

  it('never takes the app folder, even where it is not first (packaged, or reordered)', () => {
    const packaged = { defaultApp: false, cwd: videos, appPath: app };
    expect(filesFromArgv(['/opt/Dubdesk/dubdesk', app, clip], packaged)).toEqual([clip]);
    expect(filesFromArgv(['/opt/Dubdesk/dubdesk', '--no-sandbox', clip], packaged)).toEqual([clip]);
  });
});

describe('a second launch', () => {
  const where = { defaultApp: true, appPath: app };

  it('takes the files it handed over, not its argv as Chromium passed it on', () => {
    const argv = [electron, '--original-process-start-time=13370000', app, '--enable-logging'];
    expect(filesOfSecondLaunch(argv, videos, { files: [clip] }, where)).toEqual([clip]);
  });

  it('leaves out handed-over files that are gone, and reads argv when nothing valid was handed over', () => {
    expect(filesOfSecondLaunch([electron], videos, { files: [join(videos, 'gone.mp4')] }, where)).toEqual([]);
    const argv = [electron, '--original-process-start-time=1', app, clip];
    expect(filesOfSecondLaunch(argv, videos, { files: 'not a list' }, where)).toEqual([clip]);
    expect(filesOfSecondLaunch(argv, videos, undefined, where)).toEqual([clip]);
  });
});

/**
 * "Open with Dubdesk" (issue 24.4): the files a launch names reach the Add sheet. On Linux the desktop entry
 * electron-builder writes passes them as `%U`, file URLs (`file:///home/me/My%20Clip.mp4`), not paths.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesFromArgv } from '../../../electron/main/single-instance';
import { tempDir } from '../../helpers/temp-dir';

describe('files named at launch', () => {
  const dir = tempDir();
  const clip = join(dir, 'My Clip #1.mp4');
  writeFileSync(clip, 'x');
  const packaged = { defaultApp: false, cwd: '/' };

  it('takes file URLs, as the Linux desktop entry (%U) passes them', () => {
    expect(filesFromArgv(['/opt/Dubdesk/dubdesk', pathToFileURL(clip).href], packaged)).toEqual([clip]);
  });

  it('takes paths, absolute or relative to the launch folder (Windows, a terminal)', () => {
    expect(filesFromArgv(['/opt/Dubdesk/dubdesk', clip], packaged)).toEqual([clip]);
    expect(filesFromArgv(['dubdesk', 'My Clip #1.mp4'], { defaultApp: false, cwd: dir })).toEqual([clip]);
  });

  it('leaves out switches, other URLs and names that are not there', () => {
    expect(
      filesFromArgv(
        ['dubdesk', '--no-sandbox', 'https://example.com/a.mp4', 'file:///nowhere/x.mp4', 'missing.mp4'],
        { defaultApp: false, cwd: dir },
      ),
    ).toEqual([]);
  });
});

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { videoMp4 } from '../../helpers/media';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/engine';

describe('a newcomer without an API key', () => {
  it('dubs against the built-in sandbox, and is told so', async () => {
    const work = tempDir('dubdesk-newcomer-');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_')));
    const r = await runCli(
      ['dub', videoMp4(2, 'first.mp4'), '--to', 'es', '--out', 'out', '--poll-interval', '0.5'],
      { ...env, DUBDESK_HOME: join(work, 'home') },
      work,
    );
    expect(r.stderr).toContain('No API key configured: using the built-in sandbox');
    expect(r.code).toBe(0);
    expect((await readdir(join(work, 'out'))).sort()).toEqual(['first.es.mp4', 'first.es.vtt']);
  });

  it('is told how to set a key when a service address is set without one', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_')));
    const r = await runCli(['me'], {
      ...env,
      DUBDESK_HOME: tempDir(),
      DUBDESK_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no API key is configured; set DUBDESK_API_KEY or run `dubdesk login`');
  });
});

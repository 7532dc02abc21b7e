import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { videoMp4 } from '../../helpers/media';
import { runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

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

describe('the built-in sandbox across commands', () => {
  it('keeps its dubs when a run is interrupted: the next run finishes them, charged once', async () => {
    const work = tempDir('dubdesk-newcomer-');
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_'))),
      DUBDESK_HOME: join(work, 'home'),
    };
    const added = await runCli(
      ['add', videoMp4(2, 'keep-going.mp4'), '--to', 'es,fr', '--out', 'out'],
      env,
      work,
    );
    expect(added.code, added.stderr).toBe(0);
    // Ctrl+C once the dubs exist on the service: the built-in sandbox stops with the command.
    const { child, done } = startCli(['run', '--until-done', '--poll-interval', '0.2'], env, work);
    let text = '';
    let sent = false;
    child.stderr?.on('data', (d: Buffer) => {
      text += d.toString();
      if (!sent && /in the service queue|dubbing/.test(text)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect((await done).code).toBe(130);
    const again = await runCli(['run', '--until-done', '--poll-interval', '0.2'], env, work);
    expect(again.stderr).not.toContain('no longer on the service');
    expect(again.code, again.stderr).toBe(0);
    expect((await readdir(join(work, 'out'))).sort()).toEqual([
      'keep-going.es.mp4',
      'keep-going.es.vtt',
      'keep-going.fr.mp4',
      'keep-going.fr.vtt',
    ]);
    const status = JSON.parse((await runCli(['status', '--json'], env, work)).stdout) as {
      jobs: { remoteId: string }[];
    };
    expect(new Set(status.jobs.map((j) => j.remoteId)).size).toBe(2);
  });
});

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubJson, StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe('dubdesk dub', () => {
  it('a.mp4 b.mp3 --to es,fr --out out leaves four dubbed files and four subtitle files', async () => {
    const work = tempDir('dubdesk-cli-');
    const env = envFor(sb, join(work, 'home'));
    const a = videoMp4(3, 'a.mp4');
    const b = audioMp3(2.5, 'b.mp3');
    const r = await runCli(
      ['dub', a, b, '--to', 'es,fr', '--out', 'out', '--poll-interval', '0.2'],
      env,
      work,
    );
    expect(r.stderr).toContain('Queued 4 jobs');
    expect(r.code).toBe(0);
    expect((await readdir(join(work, 'out'))).sort()).toEqual([
      'a.es.mp4',
      'a.es.vtt',
      'a.fr.mp4',
      'a.fr.vtt',
      'b.es.mp3',
      'b.es.vtt',
      'b.fr.mp3',
      'b.fr.vtt',
    ]);

    const status = await runCli(['status', '--json'], env, work);
    expect(status.code).toBe(0);
    const parsed = StatusJson.parse(JSON.parse(status.stdout));
    expect(parsed.jobs.map((j) => [j.destLang, j.state, j.api, j.outputs.length])).toEqual([
      ['es', 'completed', 'v2', 2],
      ['fr', 'completed', 'v2', 2],
      ['es', 'completed', 'v2', 2],
      ['fr', 'completed', 'v2', 2],
    ]);
    expect(parsed.jobs[0]?.measuredDuration).toBeCloseTo(3, 0);

    // --json prints one JSON document on stdout and nothing else there.
    const again = await runCli(
      ['dub', a, '--to', 'de', '--out', 'out', '--json', '--poll-interval', '0.2'],
      env,
      work,
    );
    expect(again.code).toBe(0);
    expect(
      DubJson.parse(JSON.parse(again.stdout)).run?.jobs.map((j) =>
        j.outputs.map((o) => o.path.slice(work.length + 1)),
      ),
    ).toEqual([['out/a.de.mp4', 'out/a.de.vtt']]);
  });

  it('estimate prints the credits against the balance; me and langs answer', async () => {
    const work = tempDir('dubdesk-cli-');
    const env = envFor(sb, join(work, 'home'));
    const est = await runCli(['estimate', videoMp4(3, 'a.mp4'), '--to', 'es,fr', '--studio', '--json'], env);
    expect(est.code).toBe(0);
    expect(JSON.parse(est.stdout)).toMatchObject({
      jobs: 2,
      credits: 12,
      studio: true,
      overBalance: false,
      balance: sb.account.seconds,
    });
    const me = await runCli(['me', '--json'], env);
    expect(JSON.parse(me.stdout)).toMatchObject({ id: sb.account.id, seconds: sb.account.seconds });
    const langs = await runCli(['langs', '--json'], env);
    expect(JSON.parse(langs.stdout)).toHaveLength(92);
    const legacy = await runCli(['langs', '--legacy', '--json'], env);
    expect(JSON.parse(legacy.stdout)).toHaveLength(17);
  });
});
